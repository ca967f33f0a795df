package io.quarry.worker;

/** A bounded queue: at most {@code capacity} queries running or waiting; beyond it callers hear "busy". */
final class Admission {

  private final int capacity;
  private int admitted;

  Admission(int capacity) {
    this.capacity = capacity;
  }

  boolean tryEnter() {
    if (admitted >= capacity) {
      return false;
    }
    admitted++;
    return true;
  }

  void leave() {
    admitted--;
  }
}
