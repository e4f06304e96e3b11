-- New orders arrive: psql "$SHOP_PG_URL" -f more_orders.sql, then run the next day.
INSERT INTO orders (customer_id, amount, created_at)
SELECT 1 + i % 6, round((19.50 + i * 1.25)::numeric, 2), timestamptz '2024-03-11 08:00Z' + i * interval '1 hour'
FROM generate_series(0, 9) i;
