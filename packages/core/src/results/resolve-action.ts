import { randomInt } from 'node:crypto';
import { copy } from '../copy/copy.js';
import type { ChatDeps, ChatOutcome } from '../chat/deps.js';
import { editImage } from '../chat/edit-image.js';
import { imagine } from '../chat/imagine.js';
import { restoreImage } from '../chat/restore-image.js';
import { imageFileStem } from '../files/file-names.js';
import type { AttachmentRef, ChatSurface, ResultAction } from '../surface/surface.js';
import { type ImageVersion, type ImageVersionKey, type ImageVersionStore, isPosted } from '../store/index.js';
import type { VersionLineage } from '../chat/version-lineage.js';
import type { ResultActionInput } from './lineage.js';

/** A button's job, ready to run with its lineage, or the short answer that refuses it. */
export type ResolvedAction =
  | { ok: true; lineage: VersionLineage; run(deps: ChatDeps, signal?: AbortSignal): Promise<ChatOutcome> }
  | { ok: false; answer: string };

const keyOf = (version: ImageVersion): ImageVersionKey => ({ jobId: version.jobId, index: version.index });

/**
 * The service's seed for a Re-roll or a Vary, new for each press: the request is otherwise the one
 * that made the version, and a deterministic service (the emulator) would answer it with the same image.
 */
const freshSeed = (): number => randomInt(2 ** 31);

/** Parents followed at most to find what a tree's images began with: trees are far shallower. */
const MAX_ANCESTORS = 100;

/**
 * What a version's tree began with: the prompt of its first version (or, for an edit of an image the
 * bot did not make, that edit's instruction). A button's result is named after it, not after the
 * instruction the bot sends for a variation.
 */
async function treePrompt(versions: ImageVersionStore, version: ImageVersion): Promise<string> {
  let current = version;
  for (let hops = 0; current.parent !== undefined && hops < MAX_ANCESTORS; hops++) {
    const parent = await versions.get(current.parent);
    if (parent === undefined) break;
    current = parent;
  }
  return current.prompt;
}

/** Where a version can be downloaded again; undefined for one that never finished posting. */
function attachmentOf(surface: ChatSurface, version: ImageVersion): AttachmentRef | undefined {
  if (!isPosted(version)) return undefined;
  return surface.postedImage?.({
    channelId: version.channelId,
    threadId: version.threadId,
    messageId: version.messageId,
    fileId: version.fileId,
    index: version.index,
    name: copy.versionName(version.number),
    mimeType: version.mimeType,
    size: version.sizeBytes,
  });
}

/**
 * Turns a press into the work it starts, reading the version tree: Re-roll
 * asks again what made the version (its prompt and aspect ratio, or the same
 * edit of the same source); Vary and Edit edit the version itself; Undo shows
 * the version it was made from again, with no model call. A restored version
 * (an undo's result) stands for the one it shows. A record that is gone
 * (retention) is answered as such, and so is a press whose new result would
 * land outside the version's channel.
 */
export async function resolveResultAction(
  kind: ResultAction,
  input: ResultActionInput,
  versions: ImageVersionStore,
  surface: ChatSurface,
): Promise<ResolvedAction> {
  const gone = { ok: false, answer: copy.buttonGone } as const;
  const pressed = await versions.get(input.version);
  if (pressed === undefined) return gone;
  // Ingress checks this too; held here as well, a job queued before that check cannot carry a version to another channel.
  if (pressed.channelId !== input.target.channelId) {
    return { ok: false, answer: copy.pressNotOnResult };
  }
  const shown =
    pressed.origin === 'restored' && pressed.parent !== undefined ? await versions.get(pressed.parent) : pressed;
  if (shown === undefined) return gone;
  const { target, userId } = input;
  const prompt = await treePrompt(versions, shown);
  const stem = (version: ImageVersion, change?: string) => imageFileStem({ prompt, version: version.number, change });

  const edit = (
    source: ImageVersion,
    lineage: VersionLineage,
    presentation: Parameters<typeof editImage>[3] = {},
    seed?: number,
  ): ResolvedAction => {
    const attachment = attachmentOf(surface, source);
    if (attachment === undefined) return gone;
    return {
      ok: true,
      lineage,
      run: (deps, signal) =>
        editImage(
          { target, instruction: lineage.prompt, candidates: [attachment], userId, seed },
          deps,
          signal,
          presentation,
        ),
    };
  };

  switch (kind) {
    case 'reroll': {
      const seed = freshSeed();
      if (shown.origin === 'generated') {
        const lineage: VersionLineage = {
          origin: 'generated',
          prompt: shown.prompt,
          aspectRatio: shown.aspectRatio,
          reroll: true,
          undo: false,
        };
        return {
          ok: true,
          lineage,
          run: (deps, signal) =>
            imagine({ target, prompt: shown.prompt, aspectRatio: shown.aspectRatio, userId, seed }, deps, signal, {
              comment: copy.rerollComment(shown.prompt),
            }),
        };
      }
      const source = shown.parent === undefined ? undefined : await versions.get(shown.parent);
      if (source === undefined) return gone;
      const varied = shown.origin === 'varied';
      const lineage: VersionLineage = {
        origin: shown.origin,
        parent: keyOf(source),
        prompt: shown.prompt,
        reroll: true,
        undo: true,
      };
      const change = varied ? copy.variationFileWord : shown.prompt;
      return edit(
        source,
        lineage,
        varied
          ? {
              words: varyWords(source.number),
              comment: (numbers) => copy.variedComment(numbers, source.number),
              stem: stem(source, change),
            }
          : {
              comment: (numbers) => copy.editedComment(numbers, source.number, shown.prompt),
              stem: stem(source, change),
            },
        seed,
      );
    }
    case 'vary': {
      const lineage: VersionLineage = {
        origin: 'varied',
        parent: keyOf(pressed),
        prompt: copy.variationInstruction,
        reroll: true,
        undo: true,
      };
      return edit(
        pressed,
        lineage,
        {
          words: varyWords(pressed.number),
          comment: (numbers) => copy.variedComment(numbers, pressed.number),
          stem: stem(pressed, copy.variationFileWord),
        },
        freshSeed(),
      );
    }
    case 'edit': {
      const instruction = input.instruction?.trim() ?? '';
      if (instruction === '') return { ok: false, answer: copy.emptyInstruction };
      const lineage: VersionLineage = {
        origin: 'edited',
        parent: keyOf(pressed),
        prompt: instruction,
        reroll: true,
        undo: true,
      };
      return edit(pressed, lineage, {
        comment: (numbers) => copy.editedComment(numbers, pressed.number, instruction),
        stem: stem(pressed, instruction),
      });
    }
    case 'undo': {
      if (shown.parent === undefined) return { ok: false, answer: copy.nothingToUndo };
      const earlier = await versions.get(shown.parent);
      if (earlier === undefined) return gone;
      const attachment = attachmentOf(surface, earlier);
      if (attachment === undefined) return gone;
      const lineage: VersionLineage = {
        origin: 'restored',
        parent: keyOf(earlier),
        prompt: earlier.prompt,
        aspectRatio: earlier.aspectRatio,
        reroll: earlier.origin === 'generated' || earlier.parent !== undefined,
        undo: earlier.parent !== undefined,
      };
      const comment = copy.restoredComment(earlier.number, shown.number);
      return {
        ok: true,
        lineage,
        run: (deps, signal) => restoreImage({ target, source: attachment, comment, stem: stem(earlier) }, deps, signal),
      };
    }
  }
}

function varyWords(number: number) {
  return {
    working: copy.varying(number),
    queued: (position: number) => copy.varyQueued(number, position),
    done: (result: { uploaded: number; tooLarge: number }) => copy.varyDone(number, result),
    failed: (description: Parameters<typeof copy.varyFailed>[1]) => copy.varyFailed(number, description),
  };
}
