import type { ChatModel, ImageModel } from '@genbot/core/surface';
import type { ModelsUsed } from './snapshot.js';

/**
 * The service as the bots use it, noting the model each call names: the page shows the latest,
 * so a channel's `chat_model` or `image_model` can be seen at work.
 */
export class ModelCalls {
  #used: ModelsUsed = {};

  /** The models the latest chat and image calls named. */
  latest(): ModelsUsed {
    return { ...this.#used };
  }

  /** `client`, with each call's model noted before it goes on. */
  watch<T extends ChatModel & ImageModel>(client: T): ChatModel & ImageModel {
    return {
      streamMessage: (request, options) => {
        this.#used = { ...this.#used, chat: request.model };
        return client.streamMessage(request, options);
      },
      generateImages: (model, input, options) => {
        this.#used = { ...this.#used, image: model };
        return client.generateImages(model, input, options);
      },
    };
  }
}
