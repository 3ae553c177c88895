// The Slack pane: #general and its threads, the person's DM with the app (the agent view) and its Home tab.
import { useMemo, useState } from 'preact/hooks';
import { LIMIT_WORDS, LIMITS } from './limits.js';
import { renderMarkdown, renderSlack } from './markup.js';
import { ASPECT_RATIOS, Composer, PersonPicker, parseCommand } from './composer.js';
import { Refusal, post } from './feed.js';
import { FormDialog, useForms } from './forms.js';
import { html } from './html.js';
import { Avatar, Buttons, Files } from './message-parts.js';
import { AppHome, PlaceTabs, StatusLine, SuggestedPrompts } from './slack-app.js';
import { Notice, useNotices } from './notices.js';
import { MessageLog, useStickToBottom } from './scrolling.js';

function SlackMessage({ message, ctx, onOpenThread, onEditImage, onPress, inThread, preview, title }) {
  const clickable = !inThread && !message.ephemeral;
  const open = () => clickable && onOpenThread(message.ts);
  return html`<article
    class=${`msg ${message.isBot ? 'from-bot' : ''} ${message.ephemeral ? 'ephemeral' : ''} ${clickable ? 'clickable' : ''}`}
    data-ts=${message.ts}
    data-author=${message.author}
    aria-label=${`${message.author}${message.ephemeral ? ' (only visible to you)' : ''}`}
    onClick=${open}
  >
    <${Avatar} name=${message.author} bot=${message.isBot} />
    <div class="msg-body">
      ${title ? html`<div class="conversation-title" aria-label="Conversation title">${title}</div>` : null}
      <header>
        <span class="author">${message.author}</span>
        ${message.isBot ? html`<span class="badge">APP</span>` : null}
        ${message.ephemeral ? html`<span class="note">Only visible to you</span>` : null}
        ${message.editCount > 0 ? html`<span class="note">(edited)</span>` : null}
      </header>
      ${message.text ? html`<div class="msg-text">${(message.markdown ? renderMarkdown : renderSlack)(message.text, ctx)}${message.streaming ? html`<span class="cursor" aria-hidden="true"></span>` : null}</div>` : null}
      <${Files} files=${message.files} onEdit=${() => onEditImage(message)} />
      <${Buttons} buttons=${message.buttons} onPress=${(button) => onPress(message, button)} />
      ${
        !inThread && message.replyCount > 0
          ? html`<button type="button" class="replies link" onClick=${(e) => {
              e.stopPropagation();
              onOpenThread(message.ts);
            }}>
            ${message.replyCount} ${message.replyCount === 1 ? 'reply' : 'replies'}
          </button>`
          : null
      }
      ${!inThread && preview ? html`<${ReplyPreview} preview=${preview} ctx=${ctx} />` : null}
      ${
        clickable && message.replyCount === 0
          ? html`<button type="button" class="hover-action link" onClick=${(e) => {
              e.stopPropagation();
              onOpenThread(message.ts);
            }}
            aria-label=${`Reply in thread to ${message.author}`}>Reply in thread</button>`
          : null
      }
    </div>
  </article>`;
}

/**
 * What the bot last said in a thread, shown under "N replies" in the channel: a mention made in the
 * channel is answered in a thread, and this is where the person is looking. A conversation's answer
 * can be two messages (the reply, then the image a tool made): the reply's words are shown, and the
 * images are counted.
 */
function ReplyPreview({ preview, ctx }) {
  const { words, images } = preview;
  return html`<div class="reply-preview" data-ts=${words.ts} aria-label=${`Latest reply from ${words.author}`}>
    <span class="author">${words.author}</span>
    ${words.text ? html`<div class="msg-text">${(words.markdown ? renderMarkdown : renderSlack)(words.text, ctx)}${words.streaming ? html`<span class="cursor" aria-hidden="true"></span>` : null}</div>` : null}
    ${images > 0 ? html`<div class="note">${images} ${images === 1 ? 'image' : 'images'}: open the thread to see ${images === 1 ? 'it' : 'them'}</div>` : null}
  </div>`;
}

/**
 * Per thread, from the bot's messages since the last person's: the words of the last one without
 * files (else of the last one), and how many images it and the messages after it hold. None when a
 * person spoke last.
 */
function threadPreviews(messages) {
  const runs = new Map();
  for (const m of messages) {
    if (m.threadTs === undefined || m.threadTs === m.ts || m.ephemeral) continue;
    if (!m.isBot) runs.set(m.threadTs, []);
    else runs.set(m.threadTs, [...(runs.get(m.threadTs) ?? []), m]);
  }
  const previews = new Map();
  for (const [threadTs, run] of runs) {
    if (run.length === 0) continue;
    const words = run.findLast((m) => m.files.length === 0) ?? run.at(-1);
    const images = run
      .slice(run.indexOf(words))
      .reduce((count, m) => count + m.files.filter((file) => file.isImage).length, 0);
    previews.set(threadTs, { words, images });
  }
  return previews;
}

export function SlackPane({ data, dms, disabled, idleWords }) {
  const [place, setPlace] = useState('channel');
  const [threadTs, setThreadTs] = useState(null);
  const [person, setPerson] = useState('alice');
  const [prefill, setPrefill] = useState(null);
  const notices = useNotices();
  const users = useMemo(
    () => new Map([...data.users.map((u) => [u.id, u.displayName || u.name]), [data.botUserId, data.botName]]),
    [data],
  );
  const ctx = {
    userName: (id) => users.get(id),
    channelName: (id) => (id === data.channel.id ? data.channel.name : undefined),
  };
  const inDm = place === 'dm';
  const dm = dms.find((d) => d.person === person);
  // An ephemeral message is shown to the person it is for alone, as Slack does.
  const source = (inDm ? (dm?.messages ?? []) : data.messages).filter(
    (m) => !m.ephemeral || m.for === undefined || m.for === person,
  );
  const channel = source.filter((m) => m.threadTs === undefined || m.threadTs === m.ts);
  const previews = useMemo(() => threadPreviews(source), [source]);
  const thread = threadTs === null ? [] : source.filter((m) => m.ts === threadTs || m.threadTs === threadTs);
  const titles = new Map(inDm ? (dm?.titles ?? []).map((t) => [t.threadTs, t.title]) : []);
  const statuses = inDm ? (dm?.statuses ?? []) : [];
  const status = threadTs === null ? statuses.at(-1) : statuses.find((s) => s.threadTs === threadTs);
  const where = inDm ? data.botName : `#${data.channel.name}`;
  const shown = notices.weave(threadTs === null ? channel : thread, threadTs, (m) => m.ts);
  const last = shown.at(-1);
  const lastPreview = threadTs === null && last?.ts !== undefined ? previews.get(last.ts) : undefined;
  const scroll = useStickToBottom(
    `${place}:${threadTs}`,
    `${shown.length}:${last?.text?.length ?? 0}:${lastPreview?.words.ts}:${lastPreview?.words.text.length ?? 0}:${lastPreview?.images ?? 0}`,
  );

  function openThread(ts) {
    setThreadTs(ts);
    setPrefill(null);
  }

  // Opening a tab is what Slack tells the app (`app_home_opened`): the bot answers with its prompts or its Home tab.
  async function go(next, who = person) {
    setPlace(next);
    setThreadTs(null);
    setPrefill(null);
    if (next === 'channel') return;
    try {
      await post('/api/slack/app', { tab: next === 'dm' ? 'messages' : 'home', user: who });
    } catch (err) {
      notices.add({ from: 'Slackbot', place: null, text: err.message });
    }
  }

  async function send({ text, file, ratio }) {
    const command = parseCommand(text);
    const after = shown.filter((m) => m.ts !== undefined).at(-1)?.ts;
    scroll.follow();
    try {
      if (command && !file) {
        if (command.name === 'imagine' && ratio && !/--ar\s/.test(command.rest)) command.rest += ` --ar ${ratio}`;
        const answer = await post('/api/slack/commands', {
          command: `/${command.name}`,
          text: command.rest,
          user: person,
          ...(inDm ? { dm: true } : {}),
        });
        // Slack runs an app's command in the conversation, never in a thread: say so where the person looks.
        if (threadTs !== null)
          notices.add({
            from: 'Slackbot',
            place: threadTs,
            after,
            text: `/${command.name} runs in ${inDm ? 'the DM' : `#${data.channel.name}`}, not in threads: its result is posted there.`,
            action: { label: `Go to ${inDm ? 'the DM' : `#${data.channel.name}`}`, run: () => setThreadTs(null) },
          });
        return answer;
      }
      return await post('/api/slack/messages', {
        text,
        user: person,
        ...(inDm ? { dm: true } : {}),
        ...(threadTs ? { threadTs } : {}),
        ...(file ? { file } : {}),
      });
    } catch (err) {
      if (!(err instanceof Refusal) || err.from === undefined) throw err;
      notices.add({ from: err.from, place: threadTs, after, text: err.message });
      return undefined;
    }
  }

  function editImage(message) {
    setThreadTs(message.threadTs ?? message.ts);
    setPrefill({ text: `@${data.botName} ` });
  }

  async function press(message, button) {
    const after = shown.filter((m) => m.ts !== undefined).at(-1)?.ts;
    scroll.follow();
    try {
      await post('/api/slack/press', {
        ts: message.ts,
        actionId: button.id,
        user: person,
        ...(inDm ? { dm: true } : {}),
      });
    } catch (err) {
      notices.add({ from: 'Slackbot', place: threadTs, after, text: err.message });
    }
  }

  // A Home tab button (an admin's Workspace settings): what the app does with it, opening its form, comes back with the state.
  async function pressInHome(button) {
    try {
      await post('/api/slack/home-press', { actionId: button.id, user: person });
    } catch (err) {
      notices.add({ from: 'Slackbot', place: 'home', text: err.message });
    }
  }

  // A suggested prompt is sent as the person's own message, starting a conversation of its own.
  async function prompt(text) {
    scroll.follow();
    try {
      await post('/api/slack/messages', { text, user: person, dm: true });
    } catch (err) {
      notices.add({ from: 'Slackbot', place: null, text: err.message });
    }
  }

  const forms = useForms('slack', data.forms, person);
  const heading =
    place === 'home'
      ? 'Home'
      : threadTs !== null
        ? (titles.get(threadTs) ?? 'Thread')
        : inDm
          ? data.botName
          : `# ${data.channel.name}`;
  const subtitle =
    place === 'home'
      ? `${data.botName}'s Home tab`
      : threadTs !== null
        ? `in ${inDm ? `your DM with ${data.botName}` : `# ${data.channel.name}`}`
        : inDm
          ? 'Messages: every message is a conversation, answered in its thread.'
          : 'Click a message to reply in its thread.';

  return html`<section class="pane slack" aria-label="Slack" data-testid="slack-pane">
    <header class="pane-header">
      <div>
        <h2><span class="platform">Slack</span> ${heading}</h2>
        <p class="subtitle">${subtitle}</p>
      </div>
      <div class="pane-tools">
        ${threadTs !== null ? html`<button type="button" class="back" onClick=${() => setThreadTs(null)}>${inDm ? '← Back to messages' : '← Back to channel'}</button>` : null}
        <${PersonPicker} platform="Slack" people=${data.people} value=${person} onChange=${(next) => {
          setPerson(next);
          if (place !== 'channel') go(place, next);
        }} />
      </div>
    </header>
    <${PlaceTabs} platform="Slack" place=${place} onGo=${go}
      places=${[
        { id: 'channel', label: `# ${data.channel.name}` },
        { id: 'dm', label: `DM with ${data.botName}` },
        { id: 'home', label: 'Home' },
      ]} />
    ${
      place === 'home'
        ? html`<${AppHome} blocks=${dm?.home} botName=${data.botName} ctx=${ctx} disabled=${disabled}
            onPress=${pressInHome} notices=${notices.weave([], 'home', (m) => m.ts)} />`
        : html`<${MessageLog} label=${threadTs !== null ? 'Slack thread messages' : inDm ? `Slack DM with ${data.botName}` : `Slack #${data.channel.name} messages`} scroll=${scroll}>
      ${inDm && threadTs === null && dm?.prompts ? html`<${SuggestedPrompts} prompts=${dm.prompts} disabled=${disabled} onPick=${prompt} />` : null}
      ${shown.length === 0 && !inDm ? html`<p class="empty">No messages yet. Try <code>/imagine a lighthouse at dusk</code> or <code>@${data.botName} hello</code>; <code>/genbot</code> shows its settings (alice may change them).</p>` : null}
      ${shown.length === 0 && inDm ? html`<p class="empty">Write to ${data.botName} here: no mention needed.</p>` : null}
      ${shown.map((m, i) =>
        m.from !== undefined
          ? html`<${Notice} key=${m.key} notice=${m} />`
          : html`<${SlackMessage} key=${m.ts} message=${m} ctx=${ctx} inThread=${threadTs !== null}
              preview=${threadTs === null ? previews.get(m.ts) : undefined}
              title=${threadTs === null ? titles.get(m.ts) : undefined}
              onOpenThread=${openThread} onEditImage=${editImage} onPress=${press} />
            ${threadTs !== null && i === 0 && thread.length > 1 ? html`<div class="divider" key="divider">${thread.length - 1} ${thread.length === 2 ? 'reply' : 'replies'}</div>` : null}`,
      )}
    <//>`
    }
    ${status ? html`<${StatusLine} botName=${data.botName} status=${status.status} />` : null}
    ${
      place === 'home'
        ? null
        : html`<${Composer}
      platform="slack"
      label=${threadTs !== null ? 'Reply in thread' : `Message ${where}`}
      placeholder=${disabled ? idleWords : threadTs !== null ? (inDm ? `Reply to ${data.botName}…` : `Reply… (@${data.botName} to ask the bot)`) : inDm ? `Message ${data.botName} (/imagine …, or just ask)` : `Message #${data.channel.name} (/imagine …, @${data.botName} …)`}
      disabled=${disabled}
      aspectChoices=${ASPECT_RATIOS.map((r) => ({ name: r, value: r }))}
      prefill=${prefill}
      onSend=${send}
      maxChars=${LIMITS.slackTextChars}
      maxCharsWords=${LIMIT_WORDS.slackText}
    />`
    }
    ${
      forms.form
        ? html`<${FormDialog} key=${`${forms.form.id}:${forms.form.version}`} form=${forms.form}
            renderText=${(text) => renderSlack(text, ctx)}
            onClose=${() => forms.close(forms.form.id)}
            onAct=${(actionId, value) => post('/api/slack/view-actions', { id: forms.form.id, actionId, value, user: person })}
            onSubmit=${(values) => {
              scroll.follow();
              return post('/api/slack/forms', { id: forms.form.id, values, user: person });
            }} />`
        : null
    }
  </section>`;
}

// Discord
