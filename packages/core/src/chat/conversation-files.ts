import { copy } from '../copy/copy.js';
import { isImageAttachment } from '../files/attachments.js';
import { downloadAttachment, type AttachmentDownload } from './download-attachment.js';
import {
  MODEL_CONTENT_LIMITS,
  modelContent,
  type LeftOutFile,
  type ModelContentBlock,
  type ModelFile,
} from '../files/model-content.js';
import { MAX_DOWNLOAD_BYTES } from '../files/download-cap.js';
import type { AttachmentRef, ThreadMessage } from '../surface/surface.js';
import { systemClock } from '../time/clock.js';
import type { ChatDeps } from './deps.js';

export interface ConversationImage {
  /** Unique within the conversation: the label the model sees before the image and the name edit_image's `image` takes. */
  name: string;
  attachment: AttachmentRef;
  /** The message that carries it. */
  messageId: string;
  /** Its place among that message's image attachments (0-based): which of a result's images it is. */
  position: number;
  /** On the trigger itself or on the message it replies to: what "this image" means. */
  pointedAt: boolean;
  /** Posted by this bot (one of its results). */
  byBot: boolean;
}

export interface ConversationFiles {
  /** Content blocks for the conversation's last user turn (labels, images, documents, file texts). */
  blocks: ModelContentBlock[];
  /** Short notes for the person (standard Markdown, from copy.ts): files left out or unreadable. */
  notes: string[];
  /** Every image attachment of the conversation, oldest first (more than the ones sent). */
  images: ConversationImage[];
}

export interface Conversation {
  /** The thread, oldest first; it may hold the trigger and the referenced message, or not. */
  history: readonly ThreadMessage[];
  trigger: ThreadMessage;
  /** The message the trigger replies to, if any. */
  referenced?: ThreadMessage | undefined;
}

/** Downloads at once: each holds a file's bytes (up to the surface's cap) until the model's content is built. */
const CONCURRENT_DOWNLOADS = 2;

type DeclaredKind = 'image' | 'PDF' | 'text file';

/** An attachment of the conversation, under the name the model knows it by. */
interface ConversationFile {
  name: string;
  attachment: AttachmentRef;
  kind: DeclaredKind;
}

/** What became of one attachment: its bytes, a note for the person, or nothing (an older image). */
type Fetched = { file: ModelFile } | { note: string } | undefined;

/** The history before the trigger, then the message it replies to, then the trigger: each message once. */
function conversationMessages(conversation: Conversation): ThreadMessage[] {
  const { history, trigger, referenced } = conversation;
  const end = history.findIndex((message) => message.id === trigger.id);
  const last = referenced === undefined ? [trigger] : [referenced, trigger];
  const lastIds = new Set(last.map((message) => message.id));
  const before = (end === -1 ? history : history.slice(0, end)).filter((message) => !lastIds.has(message.id));
  const seen = new Set<string>();
  return [...before, ...last].filter((message) => {
    if (seen.has(message.id)) return false;
    seen.add(message.id);
    return true;
  });
}

/** `photo (2).png`: the number goes before the extension, so the name still says what the file is. */
function numbered(name: string, number: number): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${number})${name.slice(dot)}` : `${name} (${number})`;
}

/** Names as given, made unique in the order asked: the first keeps its own. */
function uniqueNamer(): (name: string) => string {
  const taken = new Set<string>();
  return (name) => {
    let unique = name;
    for (let number = 2; taken.has(unique); number++) unique = numbered(name, number);
    taken.add(unique);
    return unique;
  };
}

/** What the attachment says it is, for the caps checked before any download; its bytes decide what it is. */
function declaredKind(attachment: AttachmentRef): DeclaredKind {
  if (isImageAttachment(attachment)) return 'image';
  const type = attachment.mimeType?.toLowerCase();
  return type === 'application/pdf' || /\.pdf$/i.test(attachment.name) ? 'PDF' : 'text file';
}

/** The most a file of this kind may be to reach the model, as far as a download can tell. */
function capOf(kind: DeclaredKind): number {
  switch (kind) {
    case 'image':
      // An image is scaled down for the model: only what the surface downloads bounds it.
      return MAX_DOWNLOAD_BYTES;
    case 'PDF':
      return MODEL_CONTENT_LIMITS.maxPdfBytes;
    case 'text file':
      return MODEL_CONTENT_LIMITS.maxTextBytes;
  }
}

function tooLarge(file: ConversationFile, size: number | undefined, limit: number): Fetched {
  const note = copy.modelFileNote({ name: file.name, reason: 'too_large', kind: file.kind, size, limit });
  return note === undefined ? undefined : { note };
}

/** One attachment's bytes, or a note saying why there are none; rejects only when aborted. */
async function fetchFile(deps: ChatDeps, file: ConversationFile, signal: AbortSignal | undefined): Promise<Fetched> {
  signal?.throwIfAborted();
  const { attachment } = file;
  const cap = capOf(file.kind);
  if (attachment.size !== undefined && attachment.size > cap) return tooLarge(file, attachment.size, cap);
  let fetched: AttachmentDownload;
  try {
    fetched = await downloadAttachment(deps.surface, attachment, deps.clock ?? systemClock, signal);
  } catch (error) {
    signal?.throwIfAborted();
    deps.logger.error({ err: error, attachment: attachment.name }, 'conversation file download failed');
    return { note: copy.downloadFailed(file.name) };
  }
  if (fetched.ok) return { file: { name: file.name, bytes: fetched.file.bytes } };
  const { error } = fetched;
  deps.logger.warn(
    { reason: error.reason, err: error, attachment: attachment.name },
    'conversation file cannot be downloaded; left out',
  );
  if (error.reason !== 'too_large') return { note: copy.fileUnavailable(file.name, error.reason) };
  // The platform's declared size, if any, was within the cap: only the host's count says how large it is.
  return tooLarge(file, error.size, Math.min(cap, MAX_DOWNLOAD_BYTES));
}

/** `run` over every item, at most `concurrency` at a time; the results in the items' order. */
async function inTurns<T, R>(items: readonly T[], concurrency: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

/**
 * The files of a conversation for the model, oldest first: the most recent
 * images (older ones are neither downloaded nor told about), text files and
 * PDFs as model-content blocks, each under a name unique in the conversation,
 * the one its label carries. A file that cannot go (past its cap as
 * declared, refused or gone on the platform, unreadable) becomes a note for
 * the person, never a failure. Also lists every image of the conversation,
 * for the tools to name. Rejects only when `signal` aborts.
 */
export async function conversationFiles(
  deps: ChatDeps,
  conversation: Conversation,
  signal?: AbortSignal,
): Promise<ConversationFiles> {
  const nameOf = uniqueNamer();
  const pointedAt = new Set([conversation.trigger.id, conversation.referenced?.id]);
  const files: ConversationFile[] = [];
  const images: ConversationImage[] = [];
  for (const message of conversationMessages(conversation)) {
    let position = 0;
    for (const attachment of message.attachments) {
      const file: ConversationFile = { name: nameOf(attachment.name), attachment, kind: declaredKind(attachment) };
      files.push(file);
      if (file.kind !== 'image') continue;
      images.push({
        name: file.name,
        attachment,
        messageId: message.id,
        position: position++,
        pointedAt: pointedAt.has(message.id),
        byBot: message.author.isSelf,
      });
    }
  }

  const sent = new Set(images.slice(-MODEL_CONTENT_LIMITS.maxImages).map((image) => image.name));
  const fetched = await inTurns(files, CONCURRENT_DOWNLOADS, (file) =>
    file.kind === 'image' && !sent.has(file.name) ? Promise.resolve(undefined) : fetchFile(deps, file, signal),
  );

  const content = await modelContent(
    fetched.flatMap((outcome) => (outcome !== undefined && 'file' in outcome ? [outcome.file] : [])),
    MODEL_CONTENT_LIMITS,
  );
  // Names are unique, so each left-out file finds its place among the notes by name.
  const leftOut = new Map<string, LeftOutFile>(content.leftOut.map((file) => [file.name, file]));
  const notes = fetched.flatMap((outcome) => {
    if (outcome === undefined) return [];
    const note = 'note' in outcome ? outcome.note : leftOutNote(leftOut.get(outcome.file.name));
    return note === undefined ? [] : [note];
  });
  return { blocks: content.blocks, notes, images };
}

function leftOutNote(file: LeftOutFile | undefined): string | undefined {
  return file === undefined ? undefined : copy.modelFileNote(file);
}
