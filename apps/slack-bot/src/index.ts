export { startSlackBot, type SlackBot, type SlackBotOptions } from './slack-bot.js';
