import { describe, expect, it } from "vitest";
import { fixedStatement, sql } from "@/lib/sql";

// fixedStatement: a hot path's statement compiled once; each call only puts its values in place.

describe("fixedStatement", () => {
  it("compiles once and puts each call's values where the statement takes them, every use of one value included", () => {
    let builds = 0;
    const statement = fixedStatement(["orgId", "name"], (p: { orgId: string; name: string }) => {
      builds += 1;
      return sql.selectFrom("Portal").select("id").where("orgId", "=", p.orgId).where("name", "=", p.name).where("name", "<>", p.orgId).limit(5);
    });
    const first = statement({ orgId: "org-1", name: "Acme" }).compile();
    const second = statement({ orgId: "org-2", name: "Bolt" }).compile();
    expect(builds).toBe(1);
    expect(second.sql).toBe(first.sql);
    expect(first.sql).toBe('select "id" from "Portal" where "orgId" = $1 and "name" = $2 and "name" <> $3 limit $4');
    expect(first.parameters).toEqual(["org-1", "Acme", "org-1", 5]);
    expect(second.parameters).toEqual(["org-2", "Bolt", "org-2", 5]);
  });

  it("refuses a statement that does not take one of its values as a parameter", () => {
    const statement = fixedStatement(["orgId", "take"], (p: { orgId: string; take: number }) =>
      sql
        .selectFrom("Portal")
        .select("id")
        .where("orgId", "=", p.orgId)
        .$if(p.take > 0, (q) => q.limit(10)),
    );
    expect(() => statement({ orgId: "org-1", take: 3 })).toThrow(/take not among the statement's parameters/);
  });

  it("names a prepared statement after its text (one name per text), and leaves the others unnamed", () => {
    const build = (p: { orgId: string }) => sql.selectFrom("Portal").select("id").where("orgId", "=", p.orgId);
    const nameOf = (statement: object) => (statement as { preparedName?: string }).preparedName;
    const prepared = fixedStatement(["orgId"], build, { prepared: true });
    const again = fixedStatement(["orgId"], build, { prepared: true });
    const other = fixedStatement(["orgId"], (p: { orgId: string }) => build(p).where("name", "=", "x"), { prepared: true });
    const plain = fixedStatement(["orgId"], build);
    expect(nameOf(prepared({ orgId: "org-1" }))).toMatch(/^fixed_[0-9a-f]{24}$/);
    expect(nameOf(again({ orgId: "org-2" }))).toBe(nameOf(prepared({ orgId: "org-1" })));
    expect(nameOf(other({ orgId: "org-1" }))).not.toBe(nameOf(prepared({ orgId: "org-1" })));
    expect(nameOf(plain({ orgId: "org-1" }))).toBeUndefined();
  });
});
