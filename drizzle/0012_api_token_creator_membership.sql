-- A token acts as its creator and dies with their membership (schema/api-tokens.ts). Tokens whose
-- creator already left were refused at authentication but kept, and came back when that person
-- rejoined, even with a lower role: they are revoked (deleted) here, which the constraint needs anyway.
DELETE FROM "api_tokens" t WHERE NOT EXISTS (SELECT 1 FROM "members" m WHERE m."organization_id" = t."organization_id" AND m."user_id" = t."created_by");
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_creator_membership_fk" FOREIGN KEY ("organization_id","created_by") REFERENCES "public"."members"("organization_id","user_id") ON DELETE cascade ON UPDATE no action;