import { z } from 'zod';
import { messageComponentsSchema } from './components.js';
import { DiscordHttpError } from './errors.js';

export const MAX_CONTENT_LENGTH = 2000;
export const MAX_ATTACHMENTS = 10;

const attachmentReference = z.looseObject({
  // New uploads name their `files[n]` index; kept attachments name their snowflake.
  id: z.union([z.string(), z.number()]).transform(String),
  description: z.string().max(1024).nullish(),
  filename: z.string().nullish(),
});

/** The message fields of POST/PATCH message bodies, webhooks and interaction callbacks. */
export const messagePayloadSchema = z.looseObject({
  content: z.string().max(MAX_CONTENT_LENGTH).nullish(),
  tts: z.boolean().nullish(),
  embeds: z.array(z.looseObject({})).max(10).nullish(),
  components: messageComponentsSchema.nullish(),
  attachments: z.array(attachmentReference).max(MAX_ATTACHMENTS).nullish(),
  allowed_mentions: z.looseObject({ replied_user: z.boolean().nullish() }).nullish(),
  flags: z.number().int().nullish(),
  message_reference: z
    .looseObject({
      message_id: z.string(),
      channel_id: z.string().nullish(),
      fail_if_not_exists: z.boolean().nullish(),
    })
    .nullish(),
});
export type MessagePayload = z.infer<typeof messagePayloadSchema>;

/** A callback's `type` and `data`, whose shape depends on the type (a message, or a modal for 9). */
export const interactionCallbackSchema = z.object({
  type: z.number().int(),
  data: z.unknown().optional(),
});

export const threadFromMessageSchema = z.looseObject({
  name: z.string().min(1).max(100),
  auto_archive_duration: z.union([z.literal(60), z.literal(1440), z.literal(4320), z.literal(10080)]).nullish(),
});

export const threadSchema = threadFromMessageSchema.extend({ type: z.number().int().nullish() });

/** `POST /users/@me/channels`: the bot opens (or finds) its DM with a person. */
export const openDmSchema = z.object({ recipient_id: z.string().min(1) });

const optionFields = {
  name: z.string().regex(/^[-_\p{L}\p{N}]{1,32}$/u),
  description: z.string().max(100).default(''),
};

/** An option a person fills in (types 3 to 11). */
const valueOptionSchema = z.looseObject({
  ...optionFields,
  type: z.number().int().min(3).max(11),
  required: z.boolean().optional(),
  choices: z
    .array(z.looseObject({ name: z.string().min(1).max(100), value: z.union([z.string(), z.number()]) }))
    .max(25)
    .optional(),
});

/** A subcommand (type 1) holds options of its own; a group (type 2) holds subcommands. */
const subcommandSchema = z.looseObject({
  ...optionFields,
  type: z.literal(1),
  options: z.array(valueOptionSchema).max(25).optional(),
});

const commandOptionSchema = z.union([
  valueOptionSchema,
  subcommandSchema,
  z.looseObject({ ...optionFields, type: z.literal(2), options: z.array(subcommandSchema).min(1).max(25) }),
]);

const CHAT_INPUT_NAME = /^[-_'\p{L}\p{N}]{1,32}$/u;

/**
 * Chat-input names are lower case without spaces and take a description; user and message
 * commands (types 2 and 3, the context menu) take mixed case and spaces, and no description or options.
 */
export const commandSchema = z
  .looseObject({
    name: z.string().min(1).max(32),
    description: z.string().max(100).default(''),
    type: z.number().int().min(1).max(4).default(1),
    options: z.array(commandOptionSchema).max(25).default([]),
  })
  .superRefine((command, context) => {
    if (command.type === 1 && !(CHAT_INPUT_NAME.test(command.name) && command.name === command.name.toLowerCase())) {
      context.addIssue({
        code: 'custom',
        message: 'Command name is invalid',
        path: ['name'],
        params: { discordCode: 'APPLICATION_COMMAND_INVALID_NAME' },
      });
    }
    const nesting = command.options.filter((option) => option.type === 1 || option.type === 2).length;
    if (nesting > 0 && nesting < command.options.length) {
      context.addIssue({
        code: 'custom',
        message: 'Sub-command and sub-command group option types are mutually exclusive to all other types',
        path: ['options'],
        params: { discordCode: 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID' },
      });
    }
    if (command.type !== 1 && (command.description !== '' || command.options.length > 0)) {
      context.addIssue({
        code: 'custom',
        message: 'Context menu commands cannot have a description or options',
        path: ['description'],
        params: { discordCode: 'APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION' },
      });
    }
  });
export type CommandPayload = z.infer<typeof commandSchema>;

export const historyQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  before: z.string().optional(),
  after: z.string().optional(),
  around: z.string().optional(),
});

/** Parses at the edge; a failure becomes Discord's 400 "Invalid Form Body" with per-field errors. */
export function parseBody<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors: Record<string, unknown> = {};
  for (const issue of result.error.issues) {
    let node = errors;
    for (const key of issue.path) {
      const name = String(key);
      node = (node[name] ??= {}) as Record<string, unknown>;
    }
    const list = (node._errors ??= []) as { code: string; message: string }[];
    list.push(fieldError(issue));
  }
  throw new DiscordHttpError(400, 50035, 'Invalid Form Body', errors);
}

function fieldError(issue: z.core.$ZodIssue): { code: string; message: string } {
  if (issue.code === 'too_big') {
    return { code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${String(issue.maximum)} or fewer in length.` };
  }
  if (issue.code === 'too_small') {
    return { code: 'BASE_TYPE_MIN_LENGTH', message: `Must be ${String(issue.minimum)} or more in length.` };
  }
  if (issue.code === 'invalid_type') {
    return issue.input === undefined
      ? { code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }
      : { code: 'BASE_TYPE_BAD_TYPE', message: issue.message };
  }
  if (issue.code === 'custom' && typeof issue.params?.discordCode === 'string') {
    return { code: issue.params.discordCode, message: issue.message };
  }
  return { code: 'INVALID', message: issue.message };
}
