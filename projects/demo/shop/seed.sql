-- The shop database of the demo: psql "$SHOP_PG_URL" -f seed.sql
CREATE TABLE IF NOT EXISTS customers (
  id      bigint PRIMARY KEY,
  name    text NOT NULL,
  country text NOT NULL
);
CREATE TABLE IF NOT EXISTS orders (
  id          bigserial PRIMARY KEY,
  customer_id bigint NOT NULL REFERENCES customers,
  amount      numeric(10,2) NOT NULL,
  created_at  timestamptz NOT NULL
);
INSERT INTO customers VALUES
  (1, 'Ada', 'UK'), (2, 'Grace', 'US'), (3, 'Edsger', 'NL'),
  (4, 'Barbara', 'US'), (5, 'Alan', 'UK'), (6, 'Niklaus', 'CH')
ON CONFLICT (id) DO NOTHING;
-- 30 orders over 2024-03-08 .. 2024-03-10, amounts with cents.
INSERT INTO orders (customer_id, amount, created_at)
SELECT 1 + i % 6, round((9.99 + i * 3.17)::numeric, 2), timestamptz '2024-03-08 00:00Z' + i * interval '2 hours 23 minutes'
FROM generate_series(0, 29) i;
