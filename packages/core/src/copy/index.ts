export { copy } from './copy.js';
