// The Discord pane: #general, its threads, the person's DM with the bot and the application commands, as Discord shows them.
import { useMemo, useState } from 'preact/hooks';
import { LIMIT_WORDS, LIMITS } from './limits.js';
import { renderMarkdown } from './markup.js';
import { ASPECT_RATIOS, Composer, PersonPicker, parseCommand } from './composer.js';
import { Refusal, post } from './feed.js';
import { FormDialog, useForms } from './forms.js';
import { html } from './html.js';
import { Avatar, Buttons, Files } from './message-parts.js';
import { Notice, useNotices } from './notices.js';
import { PlaceTabs } from './slack-app.js';
import { MessageLog, useStickToBottom } from './scrolling.js';

function DiscordMessage({ message, ctx, onReply, onEditImage, onOpenThread, threadName, onPress, appCommands, onApp }) {
  return html`<article
    class=${`msg ${message.isBot ? 'from-bot' : ''} ${message.ephemeral ? 'ephemeral' : ''}`}
    data-id=${message.id}
    data-author=${message.author}
    aria-label=${message.author}
  >
    ${
      message.replyTo
        ? html`<div class="reply-ref" aria-label=${`In reply to ${message.replyTo.author}`}>
          <span class="reply-curve" aria-hidden="true"></span>
          <span class="author">@${message.replyTo.author}</span> <span class="excerpt">${message.replyTo.excerpt}</span>
        </div>`
        : null
    }
    ${
      message.command
        ? html`<div class="reply-ref"><span class="reply-curve" aria-hidden="true"></span>
          <span class="author">${message.command.user}</span> used <span class="command">/${message.command.name}</span></div>`
        : null
    }
    <div class="msg-row">
      <${Avatar} name=${message.author} bot=${message.isBot} />
      <div class="msg-body">
        <header>
          <span class="author">${message.author}</span>
          ${message.isBot ? html`<span class="badge">APP</span>` : null}
          ${message.editCount > 0 && !message.loading ? html`<span class="note">(edited)</span>` : null}
        </header>
        ${
          message.loading
            ? html`<div class="msg-text thinking">${message.author} is thinking<span class="dots" aria-hidden="true"></span></div>`
            : message.content
              ? html`<div class="msg-text">${renderMarkdown(message.content, ctx)}</div>`
              : null
        }
        ${message.ephemeral ? html`<div class="note">Only you can see this</div>` : null}
        <${Files} files=${message.files} onEdit=${() => onEditImage(message)} />
        <${Buttons} buttons=${message.buttons} onPress=${(button) => onPress(message, button)} />
        ${
          message.threadId && onOpenThread
            ? html`<button type="button" class="replies link" onClick=${() => onOpenThread(message.threadId)}>Thread: ${threadName ?? 'open'}</button>`
            : null
        }
      </div>
      ${
        onReply && !message.loading
          ? html`<div class="hover-actions">
              ${
                message.files.some((file) => file.isImage)
                  ? appCommands.map(
                      (name) =>
                        html`<button type="button" key=${name} class="hover-action link" onClick=${() => onApp(message, name)} aria-label=${`Apps: ${name}`}>${name}</button>`,
                    )
                  : null
              }
              <button type="button" class="hover-action link" onClick=${() => onReply(message)} aria-label=${`Reply to ${message.author}`}>Reply</button>
            </div>`
          : null
      }
    </div>
  </article>`;
}

export function DiscordPane({ data, dms, disabled, idleWords }) {
  const [inDm, setInDm] = useState(false);
  const [threadId, setThreadId] = useState(null);
  const [replyTo, setReplyTo] = useState(null);
  const [person, setPerson] = useState('alice');
  const [prefill, setPrefill] = useState(null);
  const notices = useNotices();
  const users = useMemo(() => {
    const map = new Map([[data.botUserId, data.botName]]);
    for (const m of [...data.messages, ...data.threads.flatMap((t) => t.messages)]) map.set(m.authorId, m.author);
    return map;
  }, [data]);
  const ctx = { userName: (id) => users.get(id) };
  const dm = dms.find((d) => d.person === person);
  const thread = threadId === null || inDm ? undefined : data.threads.find((t) => t.id === threadId);
  const place = thread ? thread.id : inDm ? 'dm' : null;
  // An ephemeral message ("Only you can see this") is shown to the person it is for alone.
  const source = (inDm ? (dm?.messages ?? []) : thread ? thread.messages : data.messages).filter(
    (m) => !m.ephemeral || m.for === undefined || m.for === person,
  );
  const shown = notices.weave(source, place, (m) => m.id);
  const last = shown.at(-1);
  const scroll = useStickToBottom(String(place), `${shown.length}:${last?.content?.length ?? 0}:${last?.loading}`);
  const imagine = data.commands.find((c) => c.name === 'imagine');
  const ratioOption = imagine?.options.find((o) => /aspect/.test(o.name));
  const aspectChoices = ratioOption?.choices.length
    ? ratioOption.choices
    : ASPECT_RATIOS.map((r) => ({ name: r, value: r }));

  async function send({ text, file, ratio }) {
    const command = parseCommand(text);
    const channelId = thread ? thread.id : undefined;
    const after = shown.filter((m) => m.id !== undefined).at(-1)?.id;
    scroll.follow();
    if (command && !file) {
      const options = {};
      const known = data.commands.find((c) => c.name === command.name);
      // A command with subcommands (/genbot set …): the playground reads the words as Discord's client fills them in.
      const typed = known?.options.some((o) => o.type === 1) ? { text: command.rest } : {};
      if (known && typed.text === undefined) {
        const textOption = known.options.find((o) => o.type === 3 && !/aspect/.test(o.name));
        if (textOption && command.rest) options[textOption.name] = command.rest;
        if (ratioOption && ratio && known === imagine) options[ratioOption.name] = ratio;
        // Discord's client does not send a command without its required options.
        const missing = known.options.find((o) => o.required && options[o.name] === undefined);
        if (missing) throw new Refusal(`/${known.name} needs a ${missing.name}: /${known.name} a lighthouse at dusk`);
      }
      try {
        return await post('/api/discord/commands', {
          name: command.name,
          options,
          ...typed,
          user: person,
          ...(channelId ? { channelId } : {}),
          ...(inDm ? { dm: true } : {}),
        });
      } catch (err) {
        if (!(err instanceof Refusal) || err.from === undefined) throw err;
        notices.add({ from: err.from, place, after, text: err.message });
        return undefined;
      }
    }
    const answer = await post('/api/discord/messages', {
      content: text,
      user: person,
      ...(channelId ? { channelId } : {}),
      ...(inDm ? { dm: true } : {}),
      ...(replyTo ? { replyTo: replyTo.id } : {}),
      ...(file ? { file } : {}),
    });
    setReplyTo(null);
    return answer;
  }

  function reply(message) {
    setReplyTo(message);
    document.getElementById('discord-composer-text')?.focus();
  }

  function editImage(message) {
    setReplyTo(message);
    setPrefill({ text: `@${data.botName} ` });
  }

  async function act(path, body) {
    const after = shown.filter((m) => m.id !== undefined).at(-1)?.id;
    scroll.follow();
    try {
      await post(path, {
        ...body,
        user: person,
        ...(thread ? { channelId: thread.id } : {}),
        ...(inDm ? { dm: true } : {}),
      });
    } catch (err) {
      notices.add({ from: 'Discord', place, after, text: err.message });
    }
  }

  const press = (message, button) => act('/api/discord/press', { messageId: message.id, customId: button.id });
  const runApp = (message, name) => act('/api/discord/message-commands', { messageId: message.id, name });
  const forms = useForms('discord', data.forms, person);
  const go = (next) => {
    setInDm(next === 'dm');
    setThreadId(null);
    setReplyTo(null);
  };
  const heading = inDm ? `@${data.botName}` : thread ? `🧵 ${thread.name}` : `# ${data.channel.name}`;
  const subtitle = inDm
    ? 'Direct message: every message is answered, no mention needed.'
    : thread
      ? `thread in # ${data.channel.name}`
      : 'Hover a message and choose Reply.';

  return html`<section class="pane discord" aria-label="Discord" data-testid="discord-pane">
    <header class="pane-header">
      <div>
        <h2><span class="platform">Discord</span> ${heading}</h2>
        <p class="subtitle">${subtitle}</p>
      </div>
      <div class="pane-tools">
        ${
          thread
            ? html`<button type="button" class="back" onClick=${() => {
                setThreadId(null);
                setReplyTo(null);
              }}>← Back to channel</button>`
            : null
        }
        <${PersonPicker} platform="Discord" people=${data.people} value=${person} onChange=${setPerson} />
      </div>
    </header>
    <${PlaceTabs} platform="Discord" place=${inDm ? 'dm' : 'channel'} onGo=${go}
      places=${[{ id: 'channel', label: `# ${data.channel.name}` }, { id: 'dm', label: `DM with ${data.botName}` }]} />
    <${MessageLog} label=${inDm ? `Discord DM with ${data.botName}` : thread ? 'Discord thread messages' : `Discord #${data.channel.name} messages`} scroll=${scroll}>
      ${shown.length === 0 && !inDm ? html`<p class="empty">No messages yet. Try <code>/imagine a lighthouse at dusk</code> or <code>@${data.botName} hello</code>; <code>/genbot settings</code> shows its settings (alice may change them).</p>` : null}
      ${shown.length === 0 && inDm ? html`<p class="empty">Write to ${data.botName} here: no mention needed.</p>` : null}
      ${shown.map((m) =>
        m.from !== undefined
          ? html`<${Notice} key=${m.key} notice=${m} />`
          : html`<${DiscordMessage} key=${m.id} message=${m} ctx=${ctx} onReply=${reply} onEditImage=${editImage}
          onPress=${press} appCommands=${data.messageCommands} onApp=${runApp}
          onOpenThread=${
            thread || inDm
              ? undefined
              : (id) => {
                  setThreadId(id);
                  setReplyTo(null);
                }
          }
          threadName=${data.threads.find((t) => t.id === m.threadId)?.name} />`,
      )}
    <//>
    <${Composer}
      platform="discord"
      label=${inDm ? `Message @${data.botName}` : thread ? `Message thread ${thread.name}` : `Message #${data.channel.name}`}
      placeholder=${disabled ? idleWords : inDm ? `Message @${data.botName}` : thread ? `Message 🧵 ${thread.name}` : `Message #${data.channel.name} (/imagine …, @${data.botName} …)`}
      disabled=${disabled}
      aspectChoices=${aspectChoices}
      prefill=${prefill}
      context=${replyTo ? `Replying to ${replyTo.author}` : null}
      onCancelContext=${() => setReplyTo(null)}
      onSend=${send}
      maxChars=${LIMITS.discordTextChars}
      maxCharsWords=${LIMIT_WORDS.discordText}
    />
    ${
      forms.form
        ? html`<${FormDialog} key=${`${forms.form.id}:${forms.form.version}`} form=${forms.form}
            renderText=${(text) => renderMarkdown(text, ctx)}
            onClose=${() => forms.close(forms.form.id)}
            onSubmit=${(values) => {
              scroll.follow();
              return post('/api/discord/forms', { id: forms.form.id, values, user: person });
            }} />`
        : null
    }
  </section>`;
}
