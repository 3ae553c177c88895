export { copy, type InstallRefusal } from './copy.js';
