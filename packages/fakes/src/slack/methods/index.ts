import { aiAppMethods } from './ai-apps.js';
import { appMethods } from './apps.js';
import { assistantMethods } from './assistant.js';
import { authMethods } from './auth.js';
import { chatMethods } from './chat.js';
import { conversationMethods } from './conversations.js';
import { fileMethods } from './files.js';
import { homeMethods } from './home.js';
import { streamMethods } from './streams.js';
import type { MethodSpec } from './types.js';
import { userMethods } from './users.js';
import { viewMethods } from './views.js';

/** Every Web API method the fake answers; anything else is `unknown_method`. */
export const methods: Readonly<Record<string, MethodSpec>> = {
  ...aiAppMethods,
  ...appMethods,
  ...assistantMethods,
  ...authMethods,
  ...chatMethods,
  ...conversationMethods,
  ...fileMethods,
  ...homeMethods,
  ...streamMethods,
  ...userMethods,
  ...viewMethods,
};
