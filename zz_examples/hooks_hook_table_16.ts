import { HOOK_TABLE } from "@app/fragment-cli/hooks";
import { quoteQualified } from "@app/fragment-cli/sql";

const table = quoteQualified("mailer", HOOK_TABLE); // "mailer"."hook_occurrences"
