/**
 * Current generally available model IDs, used when CHAT_MODEL / IMAGE_MODEL /
 * TEXT_MODEL are unset. Model IDs change often; these were looked up in the
 * providers' documentation (2026):
 * - chat: Claude Sonnet 5, "the best combination of speed and intelligence" on
 *   Anthropic's models overview (platform.claude.com/docs/en/about-claude/models/overview).
 * - image: Nano Banana 2 Lite, stable `gemini-3.1-flash-lite-image` on the Gemini API
 *   model page (ai.google.dev/gemini-api/docs/models/gemini-3.1-flash-lite-image),
 *   image generation and editing with every aspect ratio we offer.
 * - text: Gemini 3.8 Flash, GA (docs.cloud.google.com/gemini-enterprise-agent-platform/
 *   models/guides/gemini-3-8-flash; ai.google.dev lists it as the latest Flash).
 */
export const DEFAULT_MODELS = {
  chat: 'claude-sonnet-5',
  image: 'gemini-3.1-flash-lite-image',
  text: 'gemini-3.8-flash',
} as const satisfies { chat: string; image: string; text: string };
