export {
  parseSlackEnv,
  parseSlackWebEnv,
  type SlackConfig,
  type SlackEnv,
  type SlackStreaming,
  type SlackWebConfig,
} from './config.js';
export { startSlackBot, type SlackBot, type SlackBotOptions } from './slack-bot.js';
export type { SlackJobs } from './handlers/context.js';
export { connectSlackSurfaces } from './worker-surfaces.js';
export { titleConversation, type DmTurn, type TitleContext } from './conversation-title.js';
export { uploadAsOneMessage } from './upload-files.js';
