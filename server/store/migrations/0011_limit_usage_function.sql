-- A customer's limit override and usage (unreleased reservations since the day's and the month's start), as JSON.
-- VOLATILE on purpose: a volatile function takes a fresh snapshot for its query, so called on a row just locked with
-- FOR UPDATE (lockCustomerWithUsage) it sees every reservation committed before the lock was granted, in the same round
-- trip as the lock. A STABLE one would see the calling statement's snapshot, taken before it waited for the lock.
CREATE FUNCTION ramp_limit_usage(p_partner uuid, p_customer uuid, p_day timestamptz, p_month timestamptz) RETURNS json
LANGUAGE sql VOLATILE AS $$
  SELECT json_build_object(
    'override', (SELECT json_build_object('single', o.single::text, 'daily', o.daily::text, 'monthly', o.monthly::text)
                 FROM limit_overrides o WHERE o.partner_id = p_partner AND o.customer_id = p_customer),
    'daily', COALESCE(SUM(r.amount_usd) FILTER (WHERE r.created_at >= p_day), 0)::text,
    'monthly', COALESCE(SUM(r.amount_usd), 0)::text)
  FROM limit_reservations r
  WHERE r.partner_id = p_partner AND r.customer_id = p_customer AND r.released_at IS NULL AND r.created_at >= p_month
$$;
