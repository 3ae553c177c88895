/**
 * What the page may send, in numbers and in the words a person reads. The page checks these before
 * sending (it imports them as /limits.js); the server answers with the same words when a request
 * did not go through those checks.
 */
export const LIMITS = {
  imageBytes: 10 * 1024 * 1024,
  slackTextChars: 4000,
  discordTextChars: 2000,
  fileNameChars: 200,
  formTextChars: 4000,
} as const;

export const LIMIT_WORDS = {
  image: 'Images up to 10 MB',
  notImage: 'Attach a PNG, JPEG, WebP, GIF or HEIC image',
  emptyImage: 'That file is empty: attach an image',
  fileName: 'File names up to 200 characters',
  slackText: 'Slack messages up to 4,000 characters',
  discordText: 'Discord messages up to 2,000 characters',
  empty: 'Type a message or attach an image',
  command: 'A command is a slash and a name, like /imagine',
  person: 'Type as alice or bob',
  place: 'That thread or message is no longer here: go back to the channel',
  homeButton: 'That button is no longer on your Home tab: open the Home tab again',
  formText: 'Answers up to 4,000 characters',
  formEmpty: 'Fill in this field',
  formChoose: 'Choose one',
  formGone: 'That form is closed: press the button again',
} as const;

const WORDED = new Set<string>(Object.values(LIMIT_WORDS));

/** True for the words above: anything else a schema says is not for a person to read. */
export function isLimitWords(message: string): boolean {
  return WORDED.has(message);
}

/** The browser module that hands both to the page. */
export function limitsModule(): string {
  return `export const LIMITS = ${JSON.stringify(LIMITS)};\nexport const LIMIT_WORDS = ${JSON.stringify(LIMIT_WORDS)};\n`;
}
