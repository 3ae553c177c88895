import type { ResultButton } from '@genbot/core/surface';
import {
  type APIActionRowComponent,
  type APIButtonComponentWithCustomId,
  ButtonStyle,
  ComponentType,
} from 'discord.js';

/** Discord's limits: 5 buttons a row, 5 rows a message. */
const PER_ROW = 5;
const MAX_ROWS = 5;

/**
 * A result's buttons as action rows, in core's order, five to a row: one
 * image's Re-roll, Vary, Edit and Undo fit one row; four images' ten buttons
 * make a row of Re-roll and the Varys and one of the Edits and Undo.
 */
export function actionRows(
  buttons: readonly Pick<ResultButton, 'id' | 'label'>[],
): APIActionRowComponent<APIButtonComponentWithCustomId>[] {
  if (buttons.length > PER_ROW * MAX_ROWS) {
    throw new Error(`${buttons.length} buttons do not fit one Discord message (${PER_ROW * MAX_ROWS} at most)`);
  }
  const rows: APIActionRowComponent<APIButtonComponentWithCustomId>[] = [];
  for (let start = 0; start < buttons.length; start += PER_ROW) {
    rows.push({
      type: ComponentType.ActionRow,
      components: buttons.slice(start, start + PER_ROW).map((button) => ({
        type: ComponentType.Button,
        style: ButtonStyle.Secondary,
        custom_id: button.id,
        label: button.label,
      })),
    });
  }
  return rows;
}
