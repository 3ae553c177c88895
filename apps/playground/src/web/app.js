// The playground page: two chat panes over the local Slack and Discord emulators, fed live by
// /api/events. Preact + htm straight from node_modules through the import map: no build step.
import { render } from 'preact';
import { DiscordPane } from './discord-pane.js';
import { STOPPED, useFeed } from './feed.js';
import { html } from './html.js';
import { SlackPane } from './slack-pane.js';

/** The models the latest calls named: a channel's settings may pick another than the default. */
function ModelsUsed({ used }) {
  if (!used?.chat && !used?.image) return null;
  return html`<p class="service models-used" aria-label="Models of the latest calls">
    Latest calls:
    ${used.chat ? html` chat <code>${used.chat}</code>` : null}
    ${used.chat && used.image ? ' ·' : null}
    ${used.image ? html` images <code>${used.image}</code>` : null}
  </p>`;
}

function App() {
  const { state, connected, stopped } = useFeed();
  if (!state) return html`<p class="booting">${stopped ? STOPPED : 'Connecting to the playground…'}</p>`;
  const { service } = state;
  const status = stopped ? STOPPED : state.closing ? 'Shutting down' : connected ? 'Live' : 'Reconnecting…';
  const idle = stopped || state.closing;
  return html`<div class="app">
    <header class="top">
      <h1>genbot <span>playground</span></h1>
      <p class="service">
        ${service.emulated ? 'Offline emulator' : `Service: ${service.label}`}
        ${service.chatModel ? html` · chat <code>${service.chatModel}</code>` : null}
        ${service.imageModel ? html` · images <code>${service.imageModel}</code>` : null}
      </p>
      <${ModelsUsed} used=${state.modelsUsed} />
      <p class=${`status ${connected && !idle ? 'live' : 'off'} ${stopped ? 'stopped' : ''}`} role="status">${status}</p>
    </header>
    <main class="panes">
      <${SlackPane} data=${state.slack} dms=${state.slackDms} disabled=${idle} idleWords=${status} />
      <${DiscordPane} data=${state.discord} dms=${state.discordDms} disabled=${idle} idleWords=${status} />
    </main>
  </div>`;
}

render(html`<${App} />`, document.getElementById('app'));
