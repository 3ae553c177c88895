// The form dialog (Slack modal, Discord modal) and which form is open for the person typing.
import { useEffect, useRef, useState } from 'preact/hooks';
import { LIMIT_WORDS, LIMITS } from './limits.js';
import { html } from './html.js';

/** What each field holds when the form is shown: the app's initial values. */
function initialValues(form) {
  return Object.fromEntries(
    form.parts.filter((part) => part.kind !== 'text' && !part.acts).map((part) => [part.id, part.value]),
  );
}

/** A text field: one line, or several where the app asked for them (Enter then adds a line). */
function InputField({ part, value, error, inputRef, onChange, onEnter }) {
  const common = {
    ref: inputRef,
    value,
    placeholder: part.placeholder ?? '',
    'aria-invalid': error ? 'true' : 'false',
    onInput: (e) => onChange(e.currentTarget.value),
  };
  return part.multiline
    ? html`<textarea rows="3" ...${common} onKeyDown=${(e) => e.key === 'Enter' && e.ctrlKey && onEnter(e)}></textarea>`
    : html`<input type="text" ...${common} onKeyDown=${(e) => e.key === 'Enter' && onEnter(e)} />`;
}

function SelectField({ part, value, error, inputRef, onChange, label }) {
  return html`<select ref=${inputRef} value=${value} aria-invalid=${error ? 'true' : 'false'} aria-label=${label}
    onChange=${(e) => onChange(e.currentTarget.value)}>
    ${value === '' ? html`<option value="" disabled>Choose…</option>` : null}
    ${part.options.map((option) => html`<option key=${option.value} value=${option.value}>${option.label}</option>`)}
  </select>`;
}

/**
 * A form the bot opened (Slack modal, Discord modal), as a dialog over the pane: its words, text
 * fields and selects as the app laid them out. Checked here before sending; the bot's own answer
 * (Slack's `response_action: errors`) shows under its field. A select that `acts` (Slack's
 * actions block) is sent the moment it changes, and the app may answer with a new form.
 */
export function FormDialog({ form, renderText, onSubmit, onAct, onClose }) {
  const [values, setValues] = useState(() => initialValues(form));
  const [errors, setErrors] = useState({});
  const [problem, setProblem] = useState(null);
  const [busy, setBusy] = useState(false);
  const first = useRef(null);
  useEffect(() => first.current?.focus(), []);
  const fields = form.parts.filter((part) => part.kind !== 'text');

  async function submit(event) {
    event.preventDefault();
    if (form.submit === undefined) return;
    const found = {};
    const sent = {};
    for (const part of fields) {
      if (part.acts) continue;
      const value = values[part.id] ?? '';
      if (part.kind === 'select') {
        if (value === '' && part.required) found[part.id] = LIMIT_WORDS.formChoose;
        if (value !== '') sent[part.id] = value;
        continue;
      }
      if (part.required && value.trim() === '') found[part.id] = LIMIT_WORDS.formEmpty;
      else if (value.length > Math.min(part.maxLength, LIMITS.formTextChars)) found[part.id] = LIMIT_WORDS.formText;
      sent[part.id] = value;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setProblem(null);
    try {
      const answer = await onSubmit(sent);
      if (answer?.errors && Object.keys(answer.errors).length > 0) setErrors(answer.errors);
    } catch (err) {
      setProblem(err.message);
    } finally {
      setBusy(false);
    }
  }

  async function act(part, value) {
    setProblem(null);
    try {
      await onAct(part.id, value);
    } catch (err) {
      setProblem(err.message);
    }
  }

  return html`<div class="form-backdrop" onClick=${(e) => e.target === e.currentTarget && onClose()}>
    <form class="form-dialog" role="dialog" aria-modal="true" aria-label=${form.title} onSubmit=${submit} noValidate>
      <h3>${form.title}</h3>
      ${form.parts.map((part, i) => {
        if (part.kind === 'text') return html`<div key=${`text-${i}`} class="form-text">${renderText(part.text)}</div>`;
        const ref = part === fields[0] ? first : undefined;
        const error = errors[part.id];
        if (part.acts)
          return html`<label key=${part.id} class="form-field form-switch">
            <${SelectField} part=${part} value=${part.value} inputRef=${ref} label=${part.label || 'Switch the form'}
              onChange=${(value) => act(part, value)} />
          </label>`;
        const change = (value) => {
          setValues({ ...values, [part.id]: value });
          setErrors({ ...errors, [part.id]: undefined });
        };
        return html`<label key=${part.id} class="form-field">
          <span>${part.label}</span>
          ${
            part.kind === 'select'
              ? html`<${SelectField} part=${part} value=${values[part.id] ?? ''} error=${error} inputRef=${ref} label=${part.label} onChange=${change} />`
              : html`<${InputField} part=${part} value=${values[part.id] ?? ''} error=${error} inputRef=${ref} onChange=${change} onEnter=${submit} />`
          }
          ${part.hint ? html`<span class="field-hint">${part.hint}</span>` : null}
          ${error ? html`<span class="field-error" role="alert">${error}</span>` : null}
        </label>`;
      })}
      ${problem ? html`<p class="field-error" role="alert">${problem}</p>` : null}
      <div class="form-actions">
        <button type="button" class="secondary" onClick=${onClose}>${form.close}</button>
        ${form.submit === undefined ? null : html`<button type="submit" class="primary" disabled=${busy}>${form.submit}</button>`}
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
