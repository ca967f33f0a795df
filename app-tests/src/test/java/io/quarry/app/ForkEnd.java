package io.quarry.app;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Closes what a fork's test classes share once its last class has run. Surefire runs each class of a fork in a
 * launcher call of its own, so an extension's root store closes with every class; the launcher session spans the fork.
 */
public final class ForkEnd implements LauncherSessionListener {

  @Override
  public void launcherSessionClosed(LauncherSession session) {
    SharedNodes.close();
    SharedBrowser.close();
  }
}
