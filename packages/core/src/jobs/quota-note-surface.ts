import type { ChatSurface } from '../surface/surface.js';

/**
 * A job's surface whose first message (an /imagine's progress message) also
 * says what is left of the user's daily quotas, in every text it shows, when
 * it fits. It deletes nothing: a progress message giving way to its result
 * keeps the note, as a short line pointing at the result. Everything else
 * passes through.
 */
export function withQuotaNote(inner: ChatSurface, note: string): ChatSurface {
  let noted: string | undefined;
  const fit = (text: string): string => {
    const withNote = `${text}\n\n${note}`;
    return withNote.length <= inner.limits.maxMessageChars ? withNote : text;
  };
  const { resultStandsAlone, showProgress, paceKey, openStream, endStream, postedImage, postPrivate } = inner;
  return {
    get limits() {
      return inner.limits;
    },
    post: async (target, text) => {
      if (noted !== undefined) return inner.post(target, text);
      const ref = await inner.post(target, fit(text));
      noted = ref.messageId;
      return ref;
    },
    edit: (message, text) => inner.edit(message, message.messageId === noted ? fit(text) : text),
    uploadFiles: (target, files, comment, buttons) => inner.uploadFiles(target, files, comment, buttons),
    readThread: (target, options) => inner.readThread(target, options),
    download: (attachment, options) => inner.download(attachment, options),
    ...(paceKey === undefined ? {} : { paceKey: (call, where) => paceKey.call(inner, call, where) }),
    ...(resultStandsAlone === undefined ? {} : { resultStandsAlone }),
    ...(showProgress === undefined
      ? {}
      : { showProgress: (target, options) => showProgress.call(inner, target, options) }),
    ...(postPrivate === undefined
      ? {}
      : { postPrivate: (target, user, text) => postPrivate.call(inner, target, user, text) }),
    ...(openStream === undefined ? {} : { openStream: (target, context) => openStream.call(inner, target, context) }),
    ...(endStream === undefined ? {} : { endStream: (message) => endStream.call(inner, message) }),
    ...(postedImage === undefined ? {} : { postedImage: (image) => postedImage.call(inner, image) }),
  };
}
