// What the logged-in user may do to one object, and where they may create one. Steve decides per
// object: a schema's PUT only says "update is granted in some namespace" (rancher/steve
// pkg/schema/factory.go), the object's own `links` say whether it is granted for this object
// (pkg/resources/common/formatter.go). Creating is per namespace: Steve's `checkPermissions`
// query puts `resourcePermissions[type].create` on each namespace the user may create in.

export interface ObjectRights {
  update: boolean;
  remove: boolean;
  patch: boolean;
}

type Obj = Record<string, unknown>;

function obj(value: unknown): Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Obj : {};
}

/** A link the user may follow: present and not Steve's "blocked" (a method the schema disallows). */
function granted(value: unknown): boolean {
  return typeof value === 'string' && value !== '' && value !== 'blocked';
}

/** The writes the server offers on this object, from its `links`; none when it has no links. */
export function objectRights(object: unknown): ObjectRights {
  const links = obj(obj(object).links);

  return {
    update: granted(links.update),
    remove: granted(links.remove),
    patch:  granted(links.patch),
  };
}

/** May this user replace (PUT) this object? Every pool write (approve, roll back, edit) is one. */
export function mayUpdate(object: unknown): boolean {
  return objectRights(object).update;
}

/**
 * The namespaces (by name, sorted) in which the user may create objects of `type`, read from
 * namespace objects listed with `?checkPermissions=<type>`.
 */
export function creatableNamespaces(namespaces: readonly unknown[], type: string): string[] {
  const out = new Set<string>();

  for (const namespace of namespaces) {
    const permissions = obj(obj(obj(namespace).resourcePermissions)[type]);
    const name = obj(obj(namespace).metadata).name;

    if (typeof name === 'string' && name && granted(permissions.create)) {
      out.add(name);
    }
  }

  return [...out].sort();
}
