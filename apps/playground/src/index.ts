export { startPlayground, type Playground, type PlaygroundOptions } from './server.js';
export type {
  DiscordMessageView,
  DiscordSnapshot,
  FileView,
  PlaygroundSnapshot,
  ServiceInfo,
  SlackMessageView,
  SlackSnapshot,
} from './snapshot.js';
