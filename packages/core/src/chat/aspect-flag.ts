export interface AspectFlag {
  /** The text without the flag, spaces tidied. */
  prompt: string;
  /** As typed after `--ar` (checked by the use case); undefined when there is no flag. */
  aspectRatio: string | undefined;
  /** `--ar` came last, without a value. */
  missingAspectRatio: boolean;
}

const ASPECT_FLAG = /(^|\s)--ar(?:=|\s+)(\S+)(?=\s|$)/i;
const BARE_FLAG = /(^|\s)--ar\s*$/i;

/**
 * `PROMPT [--ar W:H]` as people type it in an image prompt, on any platform:
 * the flag may come anywhere in the text, as `--ar 16:9` or `--ar=16:9`.
 */
export function splitAspectFlag(text: string): AspectFlag {
  const flag = ASPECT_FLAG.exec(text);
  if (flag !== null) {
    const prompt = `${text.slice(0, flag.index)}${flag[1] ?? ''}${text.slice(flag.index + flag[0].length)}`;
    return { prompt: prompt.replace(/\s+/g, ' ').trim(), aspectRatio: flag[2], missingAspectRatio: false };
  }
  if (BARE_FLAG.test(text)) {
    return { prompt: text.replace(BARE_FLAG, '').trim(), aspectRatio: undefined, missingAspectRatio: true };
  }
  return { prompt: text.trim(), aspectRatio: undefined, missingAspectRatio: false };
}
