/**
 * Errors thrown by the parsers of external files. Each carries a `reason` code and an l10n
 * key with values, so the UI can say what was wrong without showing a raw exception.
 */
export class DomainFormatError extends Error {
  readonly reason: string;
  readonly key: string;
  readonly values: Record<string, unknown>;

  constructor(keyPrefix: string, reason: string, message: string, values: Record<string, unknown> = {}) {
    super(message);
    this.name = new.target.name;
    this.reason = reason;
    this.key = `${ keyPrefix }.${ reason }`;
    this.values = values;
    // Keeps `instanceof` working when compiled down to ES5.
    Object.setPrototypeOf(this, new.target.prototype);
  }
}

/** An updates log (updateinfo JSON) that cannot be used. Keys: `osUpgrades.changelog.error.*`. */
export class ChangelogFormatError extends DomainFormatError {
  constructor(reason: string, message: string, values: Record<string, unknown> = {}) {
    super('osUpgrades.changelog.error', reason, message, values);
  }
}

/** A package list that cannot be used. Keys: `osUpgrades.changelog.packageListError.*`. */
export class PackageListFormatError extends DomainFormatError {
  constructor(reason: string, message: string, values: Record<string, unknown> = {}) {
    super('osUpgrades.changelog.packageListError', reason, message, values);
  }
}
