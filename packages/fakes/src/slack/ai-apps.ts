import type { SlackWorkspace } from './workspace.js';

/**
 * Which AI-app experience the app's manifest declares: the agent view
 * (`features.agent_view`, what every new app gets) or the older assistant
 * view (`features.assistant_view`). Slack treats some calls differently
 * under each (suggested prompts with a `thread_ts` under the agent view).
 */
export type AiView = 'agent' | 'assistant';

export interface SuggestedPrompt {
  title: string;
  message: string;
}

/** Prompts set with `assistant.threads.setSuggestedPrompts`, where Slack shows them. */
export interface SuggestedPrompts {
  channel: string;
  /** The assistant thread they are shown in; undefined for the agent view's whole DM. */
  threadTs?: string;
  title?: string;
  prompts: SuggestedPrompt[];
  atMs: number;
}

/** A conversation's title, set by `agents.sessions.rename` or `assistant.threads.setTitle`. */
export interface ThreadTitle {
  channel: string;
  threadTs: string;
  title: string;
  method: 'agents.sessions.rename' | 'assistant.threads.setTitle';
  atMs: number;
}

/** A person's Home tab as the app last published it (`views.publish`). */
export interface HomeTab {
  id: string;
  user: string;
  /** The `view` object as the app sent it. */
  view: Record<string, unknown>;
  hash: string;
  atMs: number;
}

/**
 * What the app set on Slack's AI-app surfaces: suggested prompts, titles and
 * Home tabs, with how the app is configured (its view, whether its Home tab
 * is on). Pure state; the methods change it, each change told to the
 * workspace's listeners so `waitFor` sees it.
 */
export class SlackAiApps {
  view: AiView;
  /** `features.app_home.home_tab_enabled`: off, `views.publish` of a home view answers `not_enabled`. */
  homeTabEnabled: boolean;
  readonly prompts: SuggestedPrompts[] = [];
  readonly titles: ThreadTitle[] = [];
  /** Every Home tab published, oldest first. */
  readonly published: HomeTab[] = [];
  readonly #workspace: SlackWorkspace;

  constructor(workspace: SlackWorkspace, options: { view: AiView; homeTabEnabled: boolean }) {
    this.#workspace = workspace;
    this.view = options.view;
    this.homeTabEnabled = options.homeTabEnabled;
  }

  /** The Home tab `user` sees now, if the app published one. */
  homeTab(user: string): HomeTab | undefined {
    return this.published.findLast((tab) => tab.user === user);
  }

  addPrompts(prompts: SuggestedPrompts): void {
    this.prompts.push(prompts);
    this.#workspace.changed();
  }

  addTitle(title: ThreadTitle): void {
    this.titles.push(title);
    this.#workspace.changed();
  }

  publish(tab: HomeTab): void {
    this.published.push(tab);
    this.#workspace.changed();
  }
}
