/**
 * Loading the user's files: importing them on every runtime (natively, or through jiti on Node
 * without type stripping), explaining CommonJS failures, finding the module instances and database
 * bindings they export, and closing what they opened. Every command that reads an app file goes
 * through here.
 *
 * @module
 */

export { findModules, type FindModulesOptions, foundLine } from "./find_modules.ts";
export {
  allDatabases,
  allModules,
  checkUserFiles,
  closeAdapters,
  type DatabaseBinding,
  displayPath,
  isDatabaseBinding,
  type LoadedFile,
  type LoadOptions,
  loadUserFiles,
  type UserFile,
} from "./load_user_files.ts";
export { importsTypeScriptNatively, importUserFile } from "./import_user_file.ts";
