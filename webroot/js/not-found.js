// An address that names no conversation of this user's (deleted, mistyped, or another account's: the server answers
// 404 alike, so nothing here tells which) says so where the messages would be, with a way back to the list.
export function showNotFound(container, { toList }) {
  const box = document.createElement('div');
  box.className = 'not-found';
  box.setAttribute('role', 'alert');
  const title = document.createElement('h2');
  title.textContent = 'Conversation not found';
  const text = document.createElement('p');
  text.className = 'muted';
  text.textContent = 'It may have been deleted, or its address is not one of your conversations.';
  const back = document.createElement('button');
  back.type = 'button';
  back.className = 'primary';
  back.textContent = 'Show your conversations';
  back.addEventListener('click', toList);
  box.append(title, text, back);
  container.replaceChildren(box);
}
