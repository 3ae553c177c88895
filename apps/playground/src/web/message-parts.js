// Parts of a message shared by both panes: its files, its buttons, its avatar.
import { html } from './html.js';

export function formatSize(bytes) {
  return bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

// Shared pieces

export function Files({ files, onEdit }) {
  if (files.length === 0) return null;
  // A click on a file (open, download, edit) is about the file, never the message around it:
  // in a Slack channel that would open the thread.
  return html`<div class=${`files ${files.length > 1 ? 'grid' : 'single'}`} onClick=${(e) => e.stopPropagation()}>
    ${files.map(
      (file) => html`<figure class="file" key=${file.id}>
        ${
          file.isImage
            ? html`<a href=${file.url} target="_blank" rel="noopener"><img src=${file.url} alt=${file.name} loading="lazy" /></a>`
            : html`<div class="file-generic">${file.name}</div>`
        }
        <figcaption>
          <span class="file-name" title=${file.name}>${file.name}</span>
          <span class="file-size">${formatSize(file.size)}</span>
          <a class="file-action" href=${`${file.url}?download=1`} download=${file.name} aria-label=${`Download ${file.name}`}>Download</a>
          ${
            file.isImage && onEdit
              ? html`<button type="button" class="file-action link" onClick=${onEdit}
                aria-label=${`Edit ${file.name} with the bot`}>Edit with @genbot</button>`
              : null
          }
        </figcaption>
      </figure>`,
    )}
  </div>`;
}

/** A result's buttons (Re-roll, Vary, Edit, Undo): a press goes to the bot as the platform sends it. */
export function Buttons({ buttons, onPress, disabled }) {
  if (!buttons || buttons.length === 0) return null;
  const rows = [];
  for (const button of buttons) (rows[button.row] ??= []).push(button);
  return html`<div class="buttons" role="group" aria-label="Result buttons" onClick=${(e) => e.stopPropagation()}>
    ${rows.map(
      (row, i) => html`<div class="button-row" key=${i}>
        ${row.map(
          (button) =>
            html`<button type="button" key=${button.id} class="action-button" disabled=${disabled} onClick=${() => onPress(button)}>${button.label}</button>`,
        )}
      </div>`,
    )}
  </div>`;
}

export function Avatar({ name, bot, system }) {
  const letter = (name || '?').charAt(0).toUpperCase();
  const face = system ? '✱' : bot ? '✦' : letter;
  return html`<div class=${`avatar ${bot ? 'bot' : ''} ${system ? 'system' : ''}`} aria-hidden="true">${face}</div>`;
}

// Slack
