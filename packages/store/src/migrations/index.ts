import type { Migration } from 'kysely/migration';
import * as jobsVersionsUsageSettings from './0001-jobs-versions-usage-settings.js';
import * as threadMessages from './0002-thread-messages.js';
import * as threadCoverage from './0003-thread-coverage.js';
import * as buttonsAndVersions from './0004-buttons-and-versions.js';
import * as versionTrees from './0005-version-trees.js';
import * as settingChanges from './0006-setting-changes.js';
import * as installations from './0007-installations.js';

/**
 * Every migration, oldest first, for both dialects. Names sort in order and
 * never change once released: the database records them.
 */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001-jobs-versions-usage-settings': jobsVersionsUsageSettings,
  '0002-thread-messages': threadMessages,
  '0003-thread-coverage': threadCoverage,
  '0004-buttons-and-versions': buttonsAndVersions,
  '0005-version-trees': versionTrees,
  '0006-setting-changes': settingChanges,
  '0007-installations': installations,
};
