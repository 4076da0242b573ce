CREATE TABLE "limit_usage" (
	"partner_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"day_start" timestamp with time zone NOT NULL,
	"daily" numeric NOT NULL,
	"month_start" timestamp with time zone NOT NULL,
	"monthly" numeric NOT NULL,
	CONSTRAINT "limit_usage_partner_id_customer_id_pk" PRIMARY KEY("partner_id","customer_id")
);
--> statement-breakpoint
CREATE INDEX "limit_reservations_released_idx" ON "limit_reservations" USING btree ("partner_id","customer_id","created_at") WHERE "limit_reservations"."released_at" IS NOT NULL;--> statement-breakpoint
-- A customer's limit override and usage for a limit check made under the customer's row lock, from the running totals
-- in limit_usage instead of a sum over the month's reservations (which grew with the customer's history while every
-- other transaction of that customer waited for the lock). p_add: the caller's own reservation, already inserted in its
-- transaction, added to the totals (an on-ramp's; 0 for a check whose reservation comes after it, addToLimitUsage).
-- When the totals are for other windows (a new day or month, or none yet) they are recomputed from the reservations,
-- which then include the caller's own. Reservations of transactions still waiting for the lock are not in the sum; each
-- adds itself when it holds the lock. Released reservations are taken back out on every read (they are few: failed and
-- refunded transactions), so a release never writes here and takes no lock after the ledger's.
-- Only ever called on a customer row locked FOR UPDATE (lockCustomerWithUsage, the limit check of reserveLimit): the
-- lock serialises every writer of a customer's totals. VOLATILE, as ramp_limit_usage: each statement sees what was
-- committed before it ran.
CREATE FUNCTION ramp_limit_usage_locked(p_partner uuid, p_customer uuid, p_day timestamptz, p_month timestamptz, p_add numeric) RETURNS json
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  d numeric;
  m numeric;
  released_d numeric;
  released_m numeric;
BEGIN
  IF p_add = 0 THEN
    SELECT daily, monthly INTO d, m FROM limit_usage
     WHERE partner_id = p_partner AND customer_id = p_customer AND day_start = p_day AND month_start = p_month;
  ELSE
    UPDATE limit_usage SET daily = daily + p_add, monthly = monthly + p_add
     WHERE partner_id = p_partner AND customer_id = p_customer AND day_start = p_day AND month_start = p_month
     RETURNING daily, monthly INTO d, m;
  END IF;
  IF NOT FOUND THEN
    SELECT COALESCE(SUM(amount_usd) FILTER (WHERE created_at >= p_day), 0), COALESCE(SUM(amount_usd), 0) INTO d, m
      FROM limit_reservations WHERE partner_id = p_partner AND customer_id = p_customer AND created_at >= p_month;
    INSERT INTO limit_usage (partner_id, customer_id, day_start, daily, month_start, monthly)
      VALUES (p_partner, p_customer, p_day, d, p_month, m)
      ON CONFLICT (partner_id, customer_id) DO UPDATE
        SET day_start = EXCLUDED.day_start, daily = EXCLUDED.daily, month_start = EXCLUDED.month_start, monthly = EXCLUDED.monthly;
  END IF;
  SELECT COALESCE(SUM(amount_usd) FILTER (WHERE created_at >= p_day), 0), COALESCE(SUM(amount_usd), 0) INTO released_d, released_m
    FROM limit_reservations
   WHERE partner_id = p_partner AND customer_id = p_customer AND released_at IS NOT NULL AND created_at >= p_month;
  RETURN json_build_object(
    'override', (SELECT json_build_object('single', o.single::text, 'daily', o.daily::text, 'monthly', o.monthly::text)
                 FROM limit_overrides o WHERE o.partner_id = p_partner AND o.customer_id = p_customer),
    'daily', (d - released_d)::text,
    'monthly', (m - released_m)::text);
END
$$;
