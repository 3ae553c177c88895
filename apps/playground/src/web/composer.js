// The message box under each pane: text, an image to attach, the aspect ratio, and who is typing.
import { useEffect, useRef, useState } from 'preact/hooks';
import { LIMIT_WORDS, LIMITS } from './limits.js';
import { html } from './html.js';
import { formatSize } from './message-parts.js';

export const ASPECT_RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'];

const PEOPLE = ['alice', 'bob'];

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/heic', 'image/heif'];

/** What keeps a message from being sent, in words; undefined when it may go. */
function checkDraft({ text, file, maxChars, maxCharsWords }) {
  if (file) {
    if (!IMAGE_TYPES.includes(file.type)) return LIMIT_WORDS.notImage;
    if (file.size === 0) return LIMIT_WORDS.emptyImage;
    if (file.size > LIMITS.imageBytes) return LIMIT_WORDS.image;
    if (file.name.length > LIMITS.fileNameChars) return LIMIT_WORDS.fileName;
  }
  if (text.trim().length > maxChars) return maxCharsWords;
  return undefined;
}

function readFile(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve({ name: file.name, mimetype: file.type, data: url.slice(url.indexOf(',') + 1) });
    };
    reader.onerror = () => reject(new Error(`could not read ${file.name}`));
    reader.readAsDataURL(file);
  });
}

/** `/imagine a red fox` -> { name: 'imagine', rest: 'a red fox' } */
export function parseCommand(text) {
  const match = /^\/([a-z0-9_-]+)(?:\s+([\s\S]*))?$/i.exec(text.trim());
  return match ? { name: match[1].toLowerCase(), rest: (match[2] ?? '').trim() } : undefined;
}

export function Composer({
  platform,
  placeholder,
  label,
  disabled,
  aspectChoices,
  onSend,
  prefill,
  context,
  onCancelContext,
  maxChars,
  maxCharsWords,
}) {
  const [text, setText] = useState('');
  const [file, setFile] = useState(null);
  const [ratio, setRatio] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const textRef = useRef(null);
  const fileRef = useRef(null);

  useEffect(() => {
    if (prefill === undefined || prefill === null) return;
    setText(prefill.text);
    textRef.current?.focus();
  }, [prefill]);

  const isImagine = /^\/imagine\b/i.test(text.trim());

  async function submit(event) {
    event?.preventDefault();
    if (busy || disabled) return;
    if (text.trim() === '' && !file) return;
    const problem = checkDraft({ text, file, maxChars, maxCharsWords });
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    setError('');
    try {
      const attachment = file ? await readFile(file) : undefined;
      await onSend({ text: text.trim(), file: attachment, ratio });
      setText('');
      setFile(null);
      if (fileRef.current) fileRef.current.value = '';
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
      textRef.current?.focus();
    }
  }

  function onKeyDown(event) {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) submit(event);
  }

  const ids = `${platform}-composer`;
  return html`<form class="composer" onSubmit=${submit} aria-label=${`${label} composer`}>
    ${
      context
        ? html`<div class="composer-context">
          <span>${context}</span>
          <button type="button" class="link" onClick=${onCancelContext} aria-label="Cancel reply">×</button>
        </div>`
        : null
    }
    ${error ? html`<div class="composer-error" role="alert">${error}</div>` : null}
    <div class="composer-box">
      <label class="visually-hidden" for=${`${ids}-text`}>${label}</label>
      <textarea
        id=${`${ids}-text`}
        ref=${textRef}
        rows="2"
        placeholder=${placeholder}
        value=${text}
        disabled=${disabled}
        onInput=${(e) => setText(e.currentTarget.value)}
        onKeyDown=${onKeyDown}
      ></textarea>
      <div class="composer-tools">
        <label class="tool attach" title="Attach an image">
          <svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2"
            stroke-linecap="round" stroke-linejoin="round"><path d="M21.4 11.1l-9.2 9.2a6 6 0 0 1-8.5-8.5l9.2-9.2a4 4 0 0 1 5.7 5.7l-9.2 9.2a2 2 0 0 1-2.8-2.8l8.5-8.5" /></svg>
          <span class="visually-hidden">Attach an image</span>
          <input ref=${fileRef} type="file" accept="image/png,image/jpeg,image/webp,image/gif" disabled=${disabled}
            onChange=${(e) => {
              const chosen = e.currentTarget.files?.[0] ?? null;
              setFile(chosen);
              setError((chosen && checkDraft({ text: '', file: chosen, maxChars, maxCharsWords })) ?? '');
            }} />
        </label>
        <label class=${`tool ratio ${isImagine ? 'active' : ''}`}>
          <span>Aspect ratio</span>
          <select value=${ratio} onChange=${(e) => setRatio(e.currentTarget.value)} disabled=${disabled}
            aria-label="Aspect ratio for /imagine">
            <option value="">default</option>
            ${aspectChoices.map((choice) => html`<option key=${choice.value} value=${choice.value}>${choice.name}</option>`)}
          </select>
        </label>
        <button type="submit" class="send" disabled=${busy || disabled}>${busy ? 'Sending…' : 'Send'}</button>
      </div>
      ${
        file
          ? html`<div class="attachment-chip">
            <span>Attached: ${file.name} (${formatSize(file.size)})</span>
            <button type="button" class="link" aria-label=${`Remove ${file.name}`}
              onClick=${() => {
                setFile(null);
                setError('');
                if (fileRef.current) fileRef.current.value = '';
              }}>remove</button>
          </div>`
          : null
      }
    </div>
  </form>`;
}

/** Who types: each person with their role there (an admin may change the bot's settings). */
export function PersonPicker({ platform, people, value, onChange }) {
  const roles = new Map((people ?? []).map((p) => [p.name, p.role]));
  return html`<label class="person">
    <span>Typing as</span>
    <select value=${value} onChange=${(e) => onChange(e.currentTarget.value)} aria-label=${`${platform}: person typing`}>
      ${PEOPLE.map((name) => html`<option key=${name} value=${name}>${roles.has(name) ? `${name} (${roles.get(name)})` : name}</option>`)}
    </select>
  </label>`;
}
