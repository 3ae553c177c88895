// Every exported name starts with `Slack`: the package root re-exports this next to the Discord fake.
export { SlackFake, startSlackFake, type SlackFakeOptions } from './server.js';
export type {
  BotSays as SlackBotSays,
  CommandRun as SlackCommandRun,
  PostedMessage as SlackPostedMessage,
  Press as SlackPress,
  UserPresses as SlackUserPresses,
  UserActsInView as SlackUserActsInView,
  UserSubmitsView as SlackUserSubmitsView,
  ViewSubmission as SlackViewSubmission,
  SubscribedEvent as SlackSubscribedEvent,
  UserEdits as SlackUserEdits,
  UserFile as SlackUserFile,
  UserRunsCommand as SlackUserRunsCommand,
  UserSays as SlackUserSays,
} from './driver.js';
export type {
  AppHomeTab as SlackAppHomeTab,
  AssistantThreadOpened as SlackAssistantThreadOpened,
  UserOpensApp as SlackUserOpensApp,
  UserRatesReply as SlackUserRatesReply,
} from './ai-app-driver.js';
export type {
  AiView as SlackAiView,
  HomeTab as SlackHomeTab,
  SlackAiApps,
  SuggestedPrompt as SlackSuggestedPrompt,
  SuggestedPrompts as SlackSuggestedPrompts,
  ThreadTitle as SlackThreadTitle,
} from './ai-apps.js';
export type { SlackIdentity } from './env.js';
export type {
  InstallableTeam as SlackInstallableTeam,
  OAuthApp as SlackOAuthApp,
  OAuthExchange as SlackOAuthExchange,
} from './oauth.js';
export type { SlackView } from './interactivity.js';
export type {
  AttemptRecord as SlackAttemptRecord,
  DeliveryKind as SlackDeliveryKind,
  DeliveryRecord as SlackDeliveryRecord,
  FailureReason as SlackFailureReason,
} from './event-delivery.js';
export type { RateLimitHit as SlackRateLimitHit, RateLimitRule as SlackRateLimitRule } from './rate-limits.js';
export type { TransferFault as SlackTransferFault } from './transfer-faults.js';
export { slackSignature, type SignatureMode as SlackSignatureMode } from './signing.js';
export type { Probe as SlackProbe, WaitOptions as SlackWaitOptions } from './wait-for.js';
export type { ApiCall as SlackApiCall } from './web-api.js';
export type {
  AssistantStatus as SlackAssistantStatus,
  FileAccessMode as SlackFileAccessMode,
  EphemeralMessage as SlackEphemeralMessage,
  MessageVersion as SlackMessageVersion,
  SlackChannel,
  SlackFile,
  SlackMessage,
  SlackRole,
  SlackUser,
  SlackWorkspace,
  StreamChunk as SlackStreamChunk,
  StreamTaskStatus as SlackStreamTaskStatus,
} from './workspace.js';
