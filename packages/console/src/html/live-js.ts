/**
 * The console's one script, served at `<base>/assets/live.js` (the CSP allows script from 'self'
 * only): it follows a page's event stream and updates the task's state, its conversation and
 * the decision in place, and appends a request's progress lines as they come. It sets text only (`textContent`), never markup; the server sends the text
 * already inert.
 */
export const LIVE_JS = `'use strict';
(() => {
  const root = document.querySelector('[data-events]');
  if (!root || typeof EventSource !== 'function') return;
  const events = new EventSource(root.getAttribute('data-events'));
  const setText = (selector, text) => {
    const node = document.querySelector(selector);
    if (node && node.textContent !== text) node.textContent = text;
  };
  events.addEventListener('snapshot', (event) => {
    const snapshot = JSON.parse(event.data);
    if (snapshot.decision) {
      setText('#decision', snapshot.decision);
      for (const form of document.querySelectorAll('form.decide')) form.remove();
    }
    if (!snapshot.task) return;
    setText('#task-state', snapshot.task.state);
    const list = document.querySelector('#conversation');
    if (!list) return;
    const messages = snapshot.task.messages.map(({ who, text }) => {
      const message = document.createElement('div');
      message.className = 'message';
      const role = document.createElement('div');
      role.className = 'role';
      role.textContent = who;
      const body = document.createElement('div');
      body.className = 'text';
      body.textContent = text;
      message.append(role, body);
      return message;
    });
    list.replaceChildren(...messages);
  });
  events.addEventListener('progress', (event) => {
    const list = document.querySelector('#progress');
    if (!list) return;
    const line = JSON.parse(event.data);
    const last = list.lastElementChild;
    if (last && Number(last.getAttribute('data-position')) >= line.position) return;
    const item = document.createElement('li');
    item.setAttribute('data-position', String(line.position));
    for (const [name, text] of [['at', line.at], ['state', line.state], ['text', line.text]]) {
      const span = document.createElement('span');
      span.className = name;
      span.textContent = text;
      item.append(span, ' ');
    }
    list.append(item);
  });
  events.addEventListener('end', () => events.close());
})();
`;
