-- Project slugs (shared/project-slug.ts): added empty, backfilled from the names with the rules new
-- projects follow (lowercase [a-z0-9-], runs of anything else as one dash, at most 50 characters,
-- "project" when nothing is left, "project-<digits>" for a name of digits only, "-2", "-3"… on a
-- collision, the oldest project keeping the plain slug), then required.
ALTER TABLE "projects" ADD COLUMN "slug" text;--> statement-breakpoint
DO $$
DECLARE
  p record;
  base text;
  candidate text;
  n integer;
BEGIN
  FOR p IN SELECT "id", "organization_id", "name" FROM "projects" ORDER BY "created_at", "id" LOOP
    base := trim(both '-' from left(trim(both '-' from regexp_replace(lower(p."name"), '[^a-z0-9]+', '-', 'g')), 50));
    IF base = '' THEN
      base := 'project';
    ELSIF base ~ '^[0-9]+$' THEN
      base := trim(both '-' from left('project-' || base, 50));
    END IF;
    candidate := base;
    n := 1;
    WHILE EXISTS (SELECT 1 FROM "projects" WHERE "organization_id" = p."organization_id" AND "slug" = candidate) LOOP
      n := n + 1;
      candidate := trim(both '-' from left(base, 50 - length('-' || n))) || '-' || n;
    END LOOP;
    UPDATE "projects" SET "slug" = candidate WHERE "id" = p."id";
  END LOOP;
END $$;--> statement-breakpoint
ALTER TABLE "projects" ALTER COLUMN "slug" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "projects_organization_slug_idx" ON "projects" USING btree ("organization_id","slug");
