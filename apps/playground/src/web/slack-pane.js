// The Slack pane: #general and its threads, as Slack shows them.
import { useMemo, useState } from 'preact/hooks';
import { LIMIT_WORDS, LIMITS } from './limits.js';
import { renderMarkdown, renderSlack } from './markup.js';
import { ASPECT_RATIOS, Composer, PersonPicker, parseCommand } from './composer.js';
import { Refusal, post } from './feed.js';
import { FormDialog, useForms } from './forms.js';
import { html } from './html.js';
import { Avatar, Buttons, Files } from './message-parts.js';
import { Notice, useNotices } from './notices.js';
import { MessageLog, useStickToBottom } from './scrolling.js';

function SlackMessage({ message, ctx, onOpenThread, onEditImage, onPress, inThread, preview }) {
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

export function SlackPane({ data, disabled, idleWords }) {
  const [threadTs, setThreadTs] = useState(null);
  const [person, setPerson] = useState('alice');
  const [prefill, setPrefill] = useState(null);
  const notices = useNotices();
  const users = useMemo(
    () => new Map([...data.users.map((u) => [u.id, u.displayName || u.name]), [data.botUserId, data.botName]]),
    [data],
  );
  const ctx = { userName: (id) => users.get(id) };
  const channel = data.messages.filter((m) => m.threadTs === undefined || m.threadTs === m.ts);
  const previews = useMemo(() => threadPreviews(data.messages), [data]);
  const thread = threadTs === null ? [] : data.messages.filter((m) => m.ts === threadTs || m.threadTs === threadTs);
  const shown = notices.weave(threadTs === null ? channel : thread, threadTs, (m) => m.ts);
  const last = shown.at(-1);
  const lastPreview = threadTs === null && last?.ts !== undefined ? previews.get(last.ts) : undefined;
  const scroll = useStickToBottom(
    String(threadTs),
    `${shown.length}:${last?.text?.length ?? 0}:${lastPreview?.words.ts}:${lastPreview?.words.text.length ?? 0}:${lastPreview?.images ?? 0}`,
  );

  function openThread(ts) {
    setThreadTs(ts);
    setPrefill(null);
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
        });
        // Slack runs an app's command in the channel, never in a thread: say so where the person looks.
        if (threadTs !== null)
          notices.add({
            from: 'Slackbot',
            place: threadTs,
            after,
            text: `/${command.name} runs in #${data.channel.name}, not in threads: its result is posted there.`,
            action: { label: `Go to #${data.channel.name}`, run: () => setThreadTs(null) },
          });
        return answer;
      }
      return await post('/api/slack/messages', {
        text,
        user: person,
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
      await post('/api/slack/press', { ts: message.ts, actionId: button.id, user: person });
    } catch (err) {
      notices.add({ from: 'Slackbot', place: threadTs, after, text: err.message });
    }
  }

  const forms = useForms('slack', data.forms, person);

  return html`<section class="pane slack" aria-label="Slack" data-testid="slack-pane">
    <header class="pane-header">
      <div>
        <h2><span class="platform">Slack</span> ${threadTs === null ? `# ${data.channel.name}` : 'Thread'}</h2>
        <p class="subtitle">${threadTs === null ? 'Click a message to reply in its thread.' : `in # ${data.channel.name}`}</p>
      </div>
      <div class="pane-tools">
        ${threadTs !== null ? html`<button type="button" class="back" onClick=${() => setThreadTs(null)}>← Back to channel</button>` : null}
        <${PersonPicker} platform="Slack" value=${person} onChange=${setPerson} />
      </div>
    </header>
    <${MessageLog} label=${threadTs === null ? `Slack #${data.channel.name} messages` : 'Slack thread messages'} scroll=${scroll}>
      ${shown.length === 0 ? html`<p class="empty">No messages yet. Try <code>/imagine a lighthouse at dusk</code> or <code>@${data.botName} hello</code>.</p>` : null}
      ${shown.map((m, i) =>
        m.from !== undefined
          ? html`<${Notice} key=${m.key} notice=${m} />`
          : html`<${SlackMessage} key=${m.ts} message=${m} ctx=${ctx} inThread=${threadTs !== null}
              preview=${threadTs === null ? previews.get(m.ts) : undefined}
              onOpenThread=${openThread} onEditImage=${editImage} onPress=${press} />
            ${threadTs !== null && i === 0 && thread.length > 1 ? html`<div class="divider" key="divider">${thread.length - 1} ${thread.length === 2 ? 'reply' : 'replies'}</div>` : null}`,
      )}
    <//>
    <${Composer}
      platform="slack"
      label=${threadTs === null ? `Message #${data.channel.name}` : 'Reply in thread'}
      placeholder=${disabled ? idleWords : threadTs === null ? `Message #${data.channel.name} (/imagine …, @${data.botName} …)` : `Reply… (@${data.botName} to ask the bot)`}
      disabled=${disabled}
      aspectChoices=${ASPECT_RATIOS.map((r) => ({ name: r, value: r }))}
      prefill=${prefill}
      onSend=${send}
      maxChars=${LIMITS.slackTextChars}
      maxCharsWords=${LIMIT_WORDS.slackText}
    />
    ${
      forms.form
        ? html`<${FormDialog} key=${forms.form.id} form=${forms.form} onClose=${() => forms.close(forms.form.id)}
            onSubmit=${(values) => {
              scroll.follow();
              return post('/api/slack/forms', { id: forms.form.id, values, user: person });
            }} />`
        : null
    }
  </section>`;
}

// Discord
