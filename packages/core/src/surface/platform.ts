/** The chat platforms genbot runs on: what a surface answers on, and what a job or record belongs to. */
export type Platform = 'slack' | 'discord';
