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
export {
  changeRefusal,
  type GenbotContext,
  type GenbotRequest,
  parseGenbotText,
  runGenbot,
} from './genbot-command.js';
export { type JobSettings, jobSettingsOf } from './job-settings.js';
export { PlaceSettings, type PlaceSettingsOptions, type SettingsPlace } from './place-settings.js';
export { type ResolvedSettings, resolveSettings, type SettingSource, type StoredSettings } from './resolve-settings.js';
export {
  type FormOutcome,
  formSettings,
  type SettingsFormField,
  type SettingsFormValues,
  settingsForm,
  settingText,
  submitSettingsForm,
} from './settings-form.js';
export { mayChange, rightsOf, type SettingsRights } from './who-may-change.js';
