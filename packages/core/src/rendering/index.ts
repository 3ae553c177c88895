export { ChannelBudget } from './channel-budget.js';
export { closeOpenFence } from './fences.js';
