-- Behavioural metrics per customer for the partition's day.
-- Upstream blocks are relations named by id; $partition_key, $partition_start
-- and $partition_end are the partition's bounds.
SELECT
    customer_id,
    count(*)                      AS orders,
    round(sum(amount), 2)         AS revenue,
    round(avg(amount), 2)         AS avg_order_value,
    bool_or(subscription)         AS subscriber,
    min(ordered_at)               AS first_order_at,
    max(ordered_at)               AS last_order_at,
    $partition_key                AS day
FROM raw_orders
WHERE ordered_at >= $partition_start AND ordered_at < $partition_end
GROUP BY customer_id
ORDER BY customer_id
