export { ModelCalls } from './models-used.js';
export { startPlayground, type Playground, type PlaygroundOptions } from './server.js';
export type {
  DiscordMessageView,
  DiscordSnapshot,
  FileView,
  ModelsUsed,
  PlaygroundSnapshot,
  ServiceInfo,
  SlackMessageView,
  SlackSnapshot,
} from './snapshot.js';
