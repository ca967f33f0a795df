// The sign-in and sign-up screen of auth.mode=password.
import { api } from './api.js';
import { elements } from './elements.js';

const $ = elements([
  'auth', 'show-signin', 'show-signup', 'signin-email', 'signin-error', 'signin-form', 'signin-password',
  'signup-email', 'signup-error', 'signup-form', 'signup-invite', 'signup-password',
]);

/** The page of a share link (/s/<token>), the one address a sign-in may return to. */
const SHARE_LINK = /^\/s\/[A-Za-z0-9_-]{1,100}$/;

export function showSignIn() {
  $('auth').hidden = false;
  $('show-signup').onclick = () => { $('signin-form').hidden = true; $('signup-form').hidden = false; $('signup-email').focus(); };
  $('show-signin').onclick = () => { $('signup-form').hidden = true; $('signin-form').hidden = false; $('signin-email').focus(); };
  $('signin-form').onsubmit = (e) => submit(e, () => api.signIn({
    email: $('signin-email').value, password: $('signin-password').value,
  }), 'signin-error');
  $('signup-form').onsubmit = (e) => submit(e, () => api.signUp({
    email: $('signup-email').value, password: $('signup-password').value, invite: $('signup-invite').value,
  }), 'signup-error');
  $('signin-email').focus();
}

/** @param call () => the request the form makes */
async function submit(event, call, errorId) {
  event.preventDefault();
  $(errorId).textContent = '';
  try {
    await call();
    const back = new URLSearchParams(location.search).get('back');
    // A share link for signed-in users sent its viewer here: back to it, and to nothing else (no open redirect).
    if (back && SHARE_LINK.test(back)) location.replace(back);
    else location.reload();
  } catch (e) {
    $(errorId).textContent = e.message;
  }
}

/**
 * Signed out, the page goes to / (the current entry replaced): whoever signs in next on this browser starts at their
 * own start page, not at the address of the conversation the last person had open (a link opened while signed out
 * still survives signing in: that address is the one being asked for).
 */
export async function signOut() {
  await api.signOut();
  location.replace('/');
}
