export {
  loadConfig,
  type ConversationConfig,
  type CoreConfig,
  type QuotaConfig,
  type ReplyConfig,
  type ServiceConfig,
} from './load-config.js';
export {
  envChoice,
  envInteger,
  envList,
  envPort,
  envString,
  envUrl,
  missingEnv,
  requiredEnvString,
  type Env,
} from './env.js';
