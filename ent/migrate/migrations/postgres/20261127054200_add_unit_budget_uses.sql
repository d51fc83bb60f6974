-- Create "unit_budget_uses" table
CREATE TABLE "unit_budget_uses" ("id" character varying NOT NULL, "project_id" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NULL, "redemption_id" character varying NOT NULL, "budget_key" character varying NOT NULL, "units" bigint NOT NULL, PRIMARY KEY ("id"));
-- Create index "unitbudgetuse_project_id_budget_key" to table: "unit_budget_uses"
CREATE INDEX "unitbudgetuse_project_id_budget_key" ON "unit_budget_uses" ("project_id", "budget_key");
-- Create index "unitbudgetuse_redemption_id" to table: "unit_budget_uses"
CREATE INDEX "unitbudgetuse_redemption_id" ON "unit_budget_uses" ("redemption_id");
