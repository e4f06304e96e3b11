-- Weekly rollup: partitioned by week, it reads the week's daily partitions
-- of daily_customer_metrics.
SELECT
    customer_id,
    sum(orders)               AS orders,
    round(sum(revenue), 2)    AS revenue,
    count(*)                  AS active_days,
    $partition_key            AS week
FROM daily_customer_metrics
GROUP BY customer_id
ORDER BY customer_id
