export {
  type EffectiveSettings,
  isSettingName,
  MAX_IMAGES_PER_REQUEST,
  MAX_SYSTEM_PROMPT_CHARS,
  type OperatorSettings,
  type ParsedSetting,
  parseSetting,
  SETTING_NAMES,
  type SettingLevel,
  type SettingName,
  workspaceOnly,
} from './catalogue.js';
export { type ResolvedSettings, resolveSettings, type SettingSource, type StoredSettings } from './resolve-settings.js';
