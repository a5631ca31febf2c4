// The panel's words in the phone's language (#38): the page embeds only this phone's catalog (webui/i18n.py, empty
// for English, whose msgids are the words), and t() looks a msgid up and fills its {name} placeholders.
const node = document.getElementById("words");
const words = node ? JSON.parse(node.textContent) : {};
export const t = (msgid, params = {}) =>
  (words[msgid] || msgid).replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
