// Slack's app surfaces in the pane: the places to switch between, the agent view's suggested prompts
// and status line, and the Home tab the app published, its blocks drawn simply.
import { renderSlack } from './markup.js';
import { html } from './html.js';
import { Notice } from './notices.js';

/** The conversations a pane can show (a channel, the DM with the bot, the app's Home), as tabs. */
export function PlaceTabs({ platform, places, place, onGo }) {
  return html`<nav class="place-tabs" aria-label=${`${platform} places`}>
    ${places.map(
      (p) =>
        html`<button type="button" key=${p.id} class=${`place-tab ${p.id === place ? 'current' : ''}`}
          aria-pressed=${p.id === place ? 'true' : 'false'} onClick=${() => onGo(p.id)}>${p.label}</button>`,
    )}
  </nav>`;
}

/** The prompts the app suggested for the DM: picking one sends its message as the person's. */
export function SuggestedPrompts({ prompts, disabled, onPick }) {
  return html`<div class="suggested-prompts" role="group" aria-label="Suggested prompts">
    ${prompts.title ? html`<p class="prompts-title">${prompts.title}</p>` : null}
    <div class="prompts">
      ${prompts.prompts.map(
        (p) =>
          html`<button type="button" key=${p.title} class="prompt" title=${p.message} disabled=${disabled}
            onClick=${() => onPick(p.message)}>${p.title}</button>`,
      )}
    </div>
  </div>`;
}

/** What the bot says it does while it works (`assistant.threads.setStatus`), as Slack shows it under the thread. */
export function StatusLine({ botName, status }) {
  return html`<p class="assistant-status" aria-live="polite" aria-label="Assistant status">
    <span class="author">${botName}</span> ${status}<span class="dots" aria-hidden="true"></span>
  </p>`;
}

/**
 * The Home tab: header, section, context and divider blocks; a section's button accessory at its right,
 * as Slack draws it, pressing it sends the press to the app. `notices`: Slack's own answers to a press.
 */
export function AppHome({ blocks, botName, ctx, disabled, onPress, notices = [] }) {
  if (blocks === undefined) return html`<div class="app-home"><p class="empty">Opening ${botName}'s Home…</p></div>`;
  return html`<div class="app-home" role="document" aria-label=${`${botName} Home tab`}>
    ${blocks.map((block, i) => {
      if (block.type === 'divider') return html`<hr key=${i} />`;
      if (block.type === 'header') return html`<h3 key=${i}>${block.text}</h3>`;
      if (block.type === 'context')
        return html`<div key=${i} class="home-context">${renderSlack(block.text, ctx)}</div>`;
      if (block.button === undefined)
        return html`<div key=${i} class="home-section">${renderSlack(block.text, ctx)}</div>`;
      return html`<div key=${i} class="home-section with-accessory">
        <div class="home-section-text">${renderSlack(block.text, ctx)}</div>
        <button type="button" class="action-button home-accessory" disabled=${disabled}
          onClick=${() => onPress(block.button)}>${block.button.label}</button>
      </div>`;
    })}
    ${notices.map((notice) => html`<${Notice} key=${notice.key} notice=${notice} />`)}
  </div>`;
}
