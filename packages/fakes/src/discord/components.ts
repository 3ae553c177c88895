import { z } from 'zod';
import type { ModalRecord, SelectRecord, TextInputRecord } from './model.js';

/** Component types the fake knows (Discord has more; a message or modal using them is refused). */
export const ComponentType = {
  ActionRow: 1,
  Button: 2,
  StringSelect: 3,
  TextInput: 4,
  TextDisplay: 10,
  Label: 18,
} as const;
export const ButtonStyle = { Primary: 1, Secondary: 2, Success: 3, Danger: 4, Link: 5, Premium: 6 } as const;
export const TextInputStyle = { Short: 1, Paragraph: 2 } as const;

const MAX_ROWS = 5;
const MAX_BUTTONS_PER_ROW = 5;
const MAX_CUSTOM_ID = 100;
const MAX_TEXT_INPUT = 4000;

/** A custom issue carrying Discord's own error code for the field. */
function discordIssue(code: string, message: string, path: (string | number)[]) {
  return { code: 'custom' as const, message, path, params: { discordCode: code } };
}

const buttonSchema = z
  .looseObject({
    type: z.literal(ComponentType.Button),
    id: z.number().int().nullish(),
    style: z.number().int().min(ButtonStyle.Primary).max(ButtonStyle.Premium),
    label: z.string().max(80).nullish(),
    emoji: z.looseObject({}).nullish(),
    custom_id: z.string().min(1).max(MAX_CUSTOM_ID).nullish(),
    url: z.string().max(512).nullish(),
    sku_id: z.string().nullish(),
    disabled: z.boolean().nullish(),
  })
  .superRefine((button, context) => {
    const link = button.style === ButtonStyle.Link;
    const premium = button.style === ButtonStyle.Premium;
    if (link && (button.url == null || button.custom_id != null)) {
      context.addIssue(discordIssue('BUTTON_COMPONENT_URL_REQUIRED', 'A link button takes a url and no custom_id', []));
    }
    if (!link && !premium && button.custom_id == null) {
      context.addIssue(discordIssue('BUTTON_COMPONENT_CUSTOM_ID_REQUIRED', 'A custom id is required', ['custom_id']));
    }
    if (!premium && button.label == null && button.emoji == null) {
      context.addIssue(discordIssue('BUTTON_COMPONENT_LABEL_REQUIRED', 'A label or an emoji is required', ['label']));
    }
  });

const actionRowSchema = z.looseObject({
  type: z.literal(ComponentType.ActionRow),
  id: z.number().int().nullish(),
  components: z.array(buttonSchema).min(1).max(MAX_BUTTONS_PER_ROW),
});

/** `components` of a message body: action rows of buttons, custom ids unique in the message. */
export const messageComponentsSchema = z
  .array(actionRowSchema)
  .max(MAX_ROWS)
  .superRefine((rows, context) => {
    const seen = new Set<string>();
    for (const [rowIndex, row] of rows.entries()) {
      for (const [index, button] of row.components.entries()) {
        if (button.custom_id == null) continue;
        if (seen.has(button.custom_id)) {
          context.addIssue(
            discordIssue('COMPONENT_CUSTOM_ID_DUPLICATED', 'Component custom id cannot be duplicated', [
              rowIndex,
              'components',
              index,
              'custom_id',
            ]),
          );
        }
        seen.add(button.custom_id);
      }
    }
  });
export type MessageComponents = z.infer<typeof messageComponentsSchema>;

const textInputSchema = z.looseObject({
  type: z.literal(ComponentType.TextInput),
  id: z.number().int().nullish(),
  custom_id: z.string().min(1).max(MAX_CUSTOM_ID),
  style: z.number().int().min(TextInputStyle.Short).max(TextInputStyle.Paragraph),
  label: z.string().min(1).max(45).nullish(),
  min_length: z.number().int().min(0).max(MAX_TEXT_INPUT).nullish(),
  max_length: z.number().int().min(1).max(MAX_TEXT_INPUT).nullish(),
  required: z.boolean().nullish(),
  value: z.string().max(MAX_TEXT_INPUT).nullish(),
  placeholder: z.string().max(100).nullish(),
});

const MAX_SELECT_OPTIONS = 25;

/**
 * A string select, as a modal takes it (inside a Label only, since 2025): 1 to 25 options,
 * no more defaults than it may hold values; `disabled` is for messages, not modals.
 */
const stringSelectSchema = z
  .looseObject({
    type: z.literal(ComponentType.StringSelect),
    id: z.number().int().nullish(),
    custom_id: z.string().min(1).max(MAX_CUSTOM_ID),
    options: z
      .array(
        z.looseObject({
          label: z.string().min(1).max(100),
          value: z.string().min(1).max(100),
          description: z.string().max(100).nullish(),
          default: z.boolean().nullish(),
        }),
      )
      .min(1)
      .max(MAX_SELECT_OPTIONS),
    placeholder: z.string().max(150).nullish(),
    min_values: z.number().int().min(0).max(MAX_SELECT_OPTIONS).nullish(),
    max_values: z.number().int().min(1).max(MAX_SELECT_OPTIONS).nullish(),
    required: z.boolean().nullish(),
    disabled: z.undefined().nullish(),
  })
  .superRefine((select, context) => {
    const min = select.min_values ?? 1;
    const max = select.max_values ?? 1;
    if (min > max || max > select.options.length) {
      context.addIssue(
        discordIssue('SELECT_COMPONENT_VALUES_INVALID', 'min_values, max_values and the options do not fit', [
          'max_values',
        ]),
      );
    }
    if (select.options.filter((option) => option.default === true).length > max) {
      context.addIssue(
        discordIssue('SELECT_COMPONENT_TOO_MANY_DEFAULTS', 'More default options than max_values', ['options']),
      );
    }
    if (new Set(select.options.map((option) => option.value)).size !== select.options.length) {
      context.addIssue(
        discordIssue('SELECT_COMPONENT_OPTION_VALUE_DUPLICATED', 'Option values must be unique', ['options']),
      );
    }
  });

/** A modal's top-level components: the older action row holding one labelled text input, or a Label. */
const modalComponentSchema = z.union([
  z.looseObject({
    type: z.literal(ComponentType.ActionRow),
    components: z.tuple([textInputSchema.extend({ label: z.string().min(1).max(45) })]),
  }),
  z.looseObject({
    type: z.literal(ComponentType.Label),
    label: z.string().min(1).max(45),
    description: z.string().max(100).nullish(),
    component: z.union([textInputSchema, stringSelectSchema]),
  }),
  z.looseObject({ type: z.literal(ComponentType.TextDisplay), content: z.string().min(1).max(4000) }),
]);

/** Callback type 9's `data`: at most 5 top-level components, their custom ids unique. */
export const modalSchema = z
  .looseObject({
    custom_id: z.string().min(1).max(MAX_CUSTOM_ID),
    title: z.string().min(1).max(45),
    components: z.array(modalComponentSchema).min(1).max(MAX_ROWS),
  })
  .superRefine((modal, context) => {
    const ids = modal.components.flatMap((component) => {
      if (component.type === ComponentType.TextDisplay) return [];
      return [
        component.type === ComponentType.ActionRow ? component.components[0].custom_id : component.component.custom_id,
      ];
    });
    if (new Set(ids).size !== ids.length) {
      context.addIssue(
        discordIssue('COMPONENT_CUSTOM_ID_DUPLICATED', 'Component custom id cannot be duplicated', ['components']),
      );
    }
  });

/** Discord numbers a message's components depth first from 1 where the sender gave no `id`. */
export function numberComponents(rows: MessageComponents): unknown[] {
  let next = 1;
  return rows.map((row) => {
    const rowId = row.id ?? next;
    next = Math.max(next, rowId) + 1;
    const components = row.components.map((button) => {
      const id = button.id ?? next;
      next = Math.max(next, id) + 1;
      return stripNullish({ ...button, id });
    });
    return stripNullish({ ...row, id: rowId, components });
  });
}

/** The modal as the fake keeps it: its text inputs and selects with Discord's defaults filled in. */
export function modalRecord(modal: z.infer<typeof modalSchema>): ModalRecord {
  const inputs: TextInputRecord[] = [];
  const selects: SelectRecord[] = [];
  const order: string[] = [];
  const texts: string[] = [];
  for (const component of modal.components) {
    if (component.type === ComponentType.TextDisplay) {
      texts.push(component.content);
      continue;
    }
    const description = component.type === ComponentType.Label ? component.description : undefined;
    const [input, label] =
      component.type === ComponentType.ActionRow
        ? [component.components[0], component.components[0].label]
        : [component.component, component.label];
    if (input.type === ComponentType.StringSelect) {
      const select = input;
      order.push(select.custom_id);
      selects.push({
        customId: select.custom_id,
        label,
        options: select.options.map((option) => ({
          label: option.label,
          value: option.value,
          default: option.default === true,
        })),
        minValues: select.min_values ?? 1,
        maxValues: select.max_values ?? 1,
        required: select.required ?? true,
        ...(description != null && { description }),
      });
      continue;
    }
    order.push(input.custom_id);
    inputs.push({
      customId: input.custom_id,
      inLabel: component.type === ComponentType.Label,
      label: label ?? '',
      style: input.style,
      required: input.required ?? true,
      minLength: input.min_length ?? 0,
      maxLength: input.max_length ?? MAX_TEXT_INPUT,
      value: input.value ?? undefined,
      ...(input.placeholder != null && { placeholder: input.placeholder }),
      ...(description != null && { description }),
    });
  }
  return { customId: modal.custom_id, title: modal.title, texts, inputs, selects, order, closedBy: null };
}

/** The custom ids of the buttons a message carries (link buttons have none). */
export function buttonIds(components: readonly unknown[]): string[] {
  const parsed = messageComponentsSchema.safeParse(components);
  if (!parsed.success) return [];
  return parsed.data.flatMap((row) =>
    row.components.flatMap((button) =>
      button.custom_id == null || button.disabled === true ? [] : [button.custom_id],
    ),
  );
}

function stripNullish<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== null && field !== undefined)) as T;
}
