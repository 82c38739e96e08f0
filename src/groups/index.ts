/** Groups: the admins' /groupsettings and the guard that enforces them. Code outside this folder imports it from here only. */
export { groupFeatures } from "./feature";
