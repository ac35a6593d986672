{
  "targets": [
    {
      "target_name": "zero_pages",
      "sources": ["zeroPages.c"]
    }
  ]
}
