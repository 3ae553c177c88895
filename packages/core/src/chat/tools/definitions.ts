import { ASPECT_RATIOS, type ToolDefinition } from '../../genai/types.js';

export const GENERATE_IMAGE = 'generate_image';
export const EDIT_IMAGE = 'edit_image';

/** Images one generate_image call may ask for, as /imagine's `images` setting allows. */
export const MAX_TOOL_IMAGES = 4;

/**
 * The tools a conversation offers with CHAT_TOOLS=on, by the contract's
 * names and input schemas. The descriptions are the model's only manual:
 * they say when to call each and what genbot does with the call.
 */
export const IMAGE_TOOLS: readonly ToolDefinition[] = [
  {
    name: GENERATE_IMAGE,
    description:
      'Generate new images from a text prompt. genbot posts them in the conversation with buttons to re-roll, vary and edit them. Call it when the person asks for a picture; write a full, self-contained prompt.',
    input_schema: {
      type: 'object',
      properties: {
        prompt: { type: 'string', description: 'What to draw, in detail.' },
        aspect_ratio: { type: 'string', enum: [...ASPECT_RATIOS], description: 'Width:height of the images.' },
        count: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_TOOL_IMAGES,
          description: 'How many images; leave it out for the channel default.',
        },
      },
      required: ['prompt'],
    },
  },
  {
    name: EDIT_IMAGE,
    description:
      'Edit an image of this conversation with an instruction. genbot posts the new version in the conversation with its buttons. Without `image`, it edits the image the person points at (attached or replied to), else the latest one.',
    input_schema: {
      type: 'object',
      properties: {
        instruction: { type: 'string', description: 'How to change the image.' },
        image: { type: 'string', description: 'The name of an image in this conversation, as labelled.' },
        aspect_ratio: { type: 'string', enum: [...ASPECT_RATIOS], description: 'Width:height of the result.' },
      },
      required: ['instruction'],
    },
  },
];
