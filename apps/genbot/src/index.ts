// What other apps reuse from the CLI package: the bot launcher opens the service the same way.
export { openService, type OpenService } from './service.js';
