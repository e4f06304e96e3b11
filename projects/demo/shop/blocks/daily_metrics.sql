-- Revenue by order day and country, over the orders this run loaded.
SELECT CAST(o.created_at AS DATE) AS order_day,
       c.country,
       count(*)                   AS orders,
       count(DISTINCT o.customer_id) AS customers,
       sum(o.amount)              AS revenue
FROM orders o
JOIN customers c ON c.id = o.customer_id
GROUP BY ALL
ORDER BY order_day, country
