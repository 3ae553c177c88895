// The form dialog (Slack modal, Discord modal) and which form is open for the person typing.
import { useEffect, useRef, useState } from 'preact/hooks';
import { LIMIT_WORDS, LIMITS } from './limits.js';
import { html } from './html.js';

/**
 * A form the bot opened (Slack modal, Discord modal), as a small dialog over the pane. Checked here
 * before sending; the bot's own answer (Slack's `response_action: errors`) shows under its field.
 */
export function FormDialog({ form, onSubmit, onClose }) {
  const [values, setValues] = useState(() => Object.fromEntries(form.inputs.map((input) => [input.id, ''])));
  const [errors, setErrors] = useState({});
  const [problem, setProblem] = useState(null);
  const [busy, setBusy] = useState(false);
  const first = useRef(null);
  useEffect(() => first.current?.focus(), []);

  async function submit(event) {
    event.preventDefault();
    const found = {};
    for (const input of form.inputs) {
      const text = values[input.id] ?? '';
      if (input.required && text.trim() === '') found[input.id] = LIMIT_WORDS.formEmpty;
      else if (text.length > Math.min(input.maxLength, LIMITS.formTextChars)) found[input.id] = LIMIT_WORDS.formText;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setProblem(null);
    try {
      const answer = await onSubmit(values);
      if (answer?.errors && Object.keys(answer.errors).length > 0) setErrors(answer.errors);
    } catch (err) {
      setProblem(err.message);
    } finally {
      setBusy(false);
    }
  }

  return html`<div class="form-backdrop" onClick=${(e) => e.target === e.currentTarget && onClose()}>
    <form class="form-dialog" role="dialog" aria-modal="true" aria-label=${form.title} onSubmit=${submit} noValidate>
      <h3>${form.title}</h3>
      ${form.inputs.map(
        (input, i) => html`<label key=${input.id} class="form-field">
          <span>${input.label}</span>
          <textarea ref=${i === 0 ? first : undefined} rows="3" value=${values[input.id]} aria-invalid=${errors[input.id] ? 'true' : 'false'}
            onInput=${(e) => {
              setValues({ ...values, [input.id]: e.currentTarget.value });
              setErrors({ ...errors, [input.id]: undefined });
            }}
            onKeyDown=${(e) => e.key === 'Enter' && !e.shiftKey && submit(e)}></textarea>
          ${errors[input.id] ? html`<span class="field-error" role="alert">${errors[input.id]}</span>` : null}
        </label>`,
      )}
      ${problem ? html`<p class="field-error" role="alert">${problem}</p>` : null}
      <div class="form-actions">
        <button type="button" class="secondary" onClick=${onClose}>Cancel</button>
        <button type="submit" class="primary" disabled=${busy}>${form.submit}</button>
      </div>
    </form>
  </div>`;
}

/**
 * Forms already open when this page loaded, per platform: a form belongs to the page that opened
 * it, and like Slack's and Discord's own dialogs it is gone after a reload.
 */
const openAtLoad = new Map();

/** The open form for the person typing, unless they closed it here or it was open before the page loaded. */
export function useForms(platform, forms, person) {
  if (!openAtLoad.has(platform)) openAtLoad.set(platform, new Set(forms.map((f) => f.id)));
  const stale = openAtLoad.get(platform);
  const [closed, setClosed] = useState([]);
  const form = forms.find((f) => f.person === person && !closed.includes(f.id) && !stale.has(f.id));
  return { form, close: (id) => setClosed((list) => [...list, id]) };
}
